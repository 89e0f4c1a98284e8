"""bjsolve strategy: basic-strategy chart (total-dependent, for the first two cards)."""
from .table_command import table_command

NAME = "strategy"
HELP = "basic-strategy chart (total-dependent, for the first two cards)"
add_arguments, run = table_command(NAME)
