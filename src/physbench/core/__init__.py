"""Items, tool calls, the suite registry, ids and hashing, and the canary."""

from physbench.core.canary import CANARY
from physbench.core.errors import UserError
from physbench.core.items import Item, Message, ToolCall
from physbench.core.registry import Suite, get_suite, register, suite_names
from physbench.core.tools import ToolSpec

__all__ = ["CANARY", "Item", "Message", "Suite", "ToolCall", "ToolSpec", "UserError", "get_suite", "register",
           "suite_names"]
