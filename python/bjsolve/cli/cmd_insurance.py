"""bjsolve insurance: EV of the insurance bet, with one more card known."""
from .table_command import table_command

NAME = "insurance"
HELP = "EV of the insurance bet, with one more card known"
add_arguments, run = table_command(NAME)
