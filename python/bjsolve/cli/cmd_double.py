"""bjsolve double: EV of doubling, per starting hand and upcard."""
from .table_command import table_command

NAME = "double"
HELP = "EV of doubling, per starting hand and upcard"
add_arguments, run = table_command(NAME)
