"""bjsolve exceptions: composition-dependent exceptions to the basic-strategy chart."""
from .table_command import table_command

NAME = "exceptions"
HELP = "composition-dependent exceptions to the basic-strategy chart"
add_arguments, run = table_command(NAME)
