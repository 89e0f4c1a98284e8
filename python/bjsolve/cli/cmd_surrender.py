"""bjsolve surrender: EV of surrendering, per starting hand and upcard."""
from .table_command import table_command

NAME = "surrender"
HELP = "EV of surrendering, per starting hand and upcard"
add_arguments, run = table_command(NAME)
