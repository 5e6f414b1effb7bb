"""Interfaces for research and teaching: a Gymnasium environment (optional extra ``research``).

Importing this package registers ``shutthebox/ShutTheBox-v0`` with Gymnasium.
"""

from __future__ import annotations

import gymnasium

from shutthebox.research.gym import ShutTheBoxEnv

__all__ = ["ShutTheBoxEnv"]

gymnasium.register(id="shutthebox/ShutTheBox-v0", entry_point="shutthebox.research.gym:ShutTheBoxEnv")
