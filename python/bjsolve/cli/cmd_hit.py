"""bjsolve hit: EV of hitting (then playing on optimally), per starting hand and upcard."""
from .table_command import table_command

NAME = "hit"
HELP = "EV of hitting (then playing on optimally), per starting hand and upcard"
add_arguments, run = table_command(NAME)
