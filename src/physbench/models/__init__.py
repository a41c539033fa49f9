"""Models: OpenAI-compatible endpoints, the embedded local model, and scripted models."""

from physbench.models.base import Completion, Model, ModelError
from physbench.models.factory import ModelOptions, make_model

__all__ = ["Completion", "Model", "ModelError", "ModelOptions", "make_model"]
