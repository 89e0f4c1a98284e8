"""bjsolve initial: probability of each starting hand with each dealer upcard."""
from .table_command import table_command

NAME = "initial"
HELP = "probability of each starting hand with each dealer upcard"
add_arguments, run = table_command(NAME)
