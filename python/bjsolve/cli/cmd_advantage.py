"""bjsolve advantage: EV of a round by dealer upcard and overall."""
from .table_command import table_command

NAME = "advantage"
HELP = "EV of a round by dealer upcard and overall"
add_arguments, run = table_command(NAME)
