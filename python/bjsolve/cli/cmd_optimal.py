"""bjsolve optimal: EV of the best action, per starting hand and upcard."""
from .table_command import table_command

NAME = "optimal"
HELP = "EV of the best action, per starting hand and upcard"
add_arguments, run = table_command(NAME)
