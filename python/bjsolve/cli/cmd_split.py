"""bjsolve split: EV of splitting each pair, per upcard."""
from .table_command import table_command

NAME = "split"
HELP = "EV of splitting each pair, per upcard"
add_arguments, run = table_command(NAME)
