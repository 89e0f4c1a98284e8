"""bjsolve stand: EV of standing, per starting hand and upcard."""
from .table_command import table_command

NAME = "stand"
HELP = "EV of standing, per starting hand and upcard"
add_arguments, run = table_command(NAME)
