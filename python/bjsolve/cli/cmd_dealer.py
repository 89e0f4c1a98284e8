"""bjsolve dealer: dealer final-outcome probabilities by upcard."""
from .table_command import table_command

NAME = "dealer"
HELP = "dealer final-outcome probabilities by upcard"
add_arguments, run = table_command(NAME, given_no_blackjack=True)
