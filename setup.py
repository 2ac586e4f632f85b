"""Packages for setuptools (the rest of the metadata is in pyproject.toml).

The query library, the ontology and the mapping are edited at the top of the repository (`sparql/`, `ontology/`,
`mappings/`) and ship inside the package as `kg/sparql`, `kg/ontology` and `kg/mappings`, so an installed `kg`
finds them from any folder (`kg.paths.resource`). pyproject.toml alone cannot map a folder outside the package
into it while still finding the packages.
"""

from setuptools import find_packages, setup

SHIPPED = {"kg.sparql": "sparql", "kg.ontology": "ontology", "kg.mappings": "mappings"}

setup(packages=find_packages(include=["kg", "kg.*", "alignment", "alignment.*"]) + sorted(SHIPPED), package_dir=SHIPPED)
