"""`kg`: a thin command line over the library. Each subcommand lives in `kg/cli/<name>.py`.

Only the module of the command being run is imported (pandas, the search stack or pyshacl load only for the
commands that use them), so one `kg ask` starts in a fraction of a second; `kg --help` imports them all.
User errors (KGError) print one line and exit 2; nothing a user can cause prints a traceback.
"""

from kg.cli.main import COMMANDS, command_of, main, parser
from kg.cli.options import (
    DEFAULT_JOBS,
    add_backend_options,
    add_deployment_option,
    add_force_option,
    add_herb_option,
    add_jobs_option,
    add_limit_options,
    add_store_option,
    add_what_if_options,
    limits_from,
    open_args_backend,
)

__all__ = [
    "COMMANDS",
    "DEFAULT_JOBS",
    "add_backend_options",
    "add_deployment_option",
    "add_force_option",
    "add_herb_option",
    "add_jobs_option",
    "add_limit_options",
    "add_store_option",
    "add_what_if_options",
    "command_of",
    "limits_from",
    "main",
    "open_args_backend",
    "parser",
]
