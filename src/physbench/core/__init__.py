"""Items, the suite registry, ids and hashing, and the canary."""

from physbench.core.canary import CANARY
from physbench.core.errors import UserError
from physbench.core.items import Item, Message, Reference
from physbench.core.registry import Suite, get_suite, register, suite_names

__all__ = ["CANARY", "Item", "Message", "Reference", "Suite", "UserError", "get_suite", "register", "suite_names"]
