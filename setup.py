"""Packages for setuptools (the rest of the metadata is in pyproject.toml).

The query library, the ontology and the mapping are edited at the top of the repository (`sparql/`, `ontology/`,
`mappings/`) and ship inside the package as `ekg/sparql`, `ekg/ontology` and `ekg/mappings`, so an installed `kg`
finds them from any folder (`ekg.paths.resource`). pyproject.toml alone cannot map a folder outside the package
into it while still finding the packages.
"""

from setuptools import find_packages, setup

SHIPPED = {"ekg.sparql": "sparql", "ekg.ontology": "ontology", "ekg.mappings": "mappings"}

setup(packages=find_packages(include=["ekg", "ekg.*"]) + sorted(SHIPPED), package_dir=SHIPPED)
