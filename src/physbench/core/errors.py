"""Errors that the command line turns into one line on stderr and exit code 2."""


class UserError(Exception):
    """Bad input from the user (a file, a name, an option): reported in one line, exit 2."""
