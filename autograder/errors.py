"""The one exception for "the grader cannot do its job": caught once, at the command line."""

__all__ = ["GraderError"]


class GraderError(Exception):
    """A bad argument, an unreadable input or a broken rubric; the message is one sentence."""
