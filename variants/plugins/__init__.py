"""Named plugins: rules a variants file cannot say as data, each a small class registered by
name (docs/variant-files.md, "Plugins").

A plugin is a mixin class whose public methods and attributes are hooks or data of
``engine.variant.Variant`` (nothing else: a typo would otherwise be a silently unused
method).  A file names the plugins a section needs under the plugin's key — ``plugins =
alice`` for general plugins, or a key a plugin declares as its own (``plugin_key``) — and the
loader builds the section's class with the plugins' classes in front of its own, so their
hooks override the defaults (``Variant.capabilities`` sees them as overridden hooks).

Where plugins come from:

* cellfish's own (``BUILTIN``: name -> "module:Class", imported on first use);
* installed packages, through the entry-point group ``cellfish.plugins``: an entry point
  ``name = package.module:Class`` registers ``Class`` under ``name``;
* ``register(cls)`` at run time (tests, embedding programs).

Two plugins of one section may not define the same hook, except ``validate_position``,
which every plugin must chain with ``super()``.
"""
from __future__ import annotations

import importlib
import re

GROUP = "cellfish.plugins"
PLUGINS_KEY = "plugins"

# cellfish's own plugins: name -> "module:Class"
BUILTIN: dict[str, str] = {
    "alice": "variants.plugins.alice:Alice",
    "directionCoverage": "variants.plugins.coverage:DirectionCoverage",
    "classCoverage": "variants.plugins.coverage:ClassCoverage",
    "ninepiece": "variants.plugins.ninepiece:Ninepiece",
    **{f: f"variants.plugins.notake:{f.capitalize()}"
       for f in ("approach", "withdraw", "shunt", "tow", "overtake", "rifle")},
    "fezbaba-waffle": "variants.plugins.semiroyal:FezbabaWaffle",
}

# hooks that several plugins of one section may define (each chains with super())
CHAINED = frozenset({"validate_position"})


class PluginError(ValueError):
    """A section's keys that a plugin cannot play with: ``key`` is the file key to blame,
    ``what`` says why, ``token`` the bad part."""

    def __init__(self, key: str, what: str, token: str) -> None:
        super().__init__(what)
        self.key, self.what, self.token = key, what, token


class PluginLoadError(Exception):
    """An installed plugin whose entry point failed to load (the message says why)."""


class Plugin:
    """Base of every plugin.  ``plugin_name``: how a file names it; ``plugin_key``: the file
    key that names it; ``plugin_check``: refuse a section the plugin cannot play."""
    plugin_name: str = ""
    plugin_key: str = PLUGINS_KEY
    # the hooks the plugin replaces rather than extends: its own version does not call
    # ``super()``, so the rule parts after it in the chain (variants/inifile/compose.py) do
    # not run for that hook.  Naming them here says that is meant (tests/test_compose.py
    # refuses a chain cut by a hook not named here)
    plugin_replaces: frozenset[str] = frozenset()

    @classmethod
    def plugin_check(cls, keys: dict[str, str]) -> None:
        """Raise PluginError when the section's keys (inheritance resolved) do not fit."""


_registered: dict[str, type[Plugin]] = {}
_broken: dict[str, str] = {}          # name -> why its entry point could not be loaded
_scanned = False


def hooks_of(cls: type) -> set[str]:
    """The public names a plugin class defines itself (the hooks it contributes)."""
    return {n for n in vars(cls) if not n.startswith("_") and not n.startswith("plugin_")}


def register(cls: type[Plugin]) -> type[Plugin]:
    """Register a plugin class under its ``plugin_name`` (usable as a decorator).  ValueError
    for a class that is not a plugin, has no name, or defines a public name that is not a
    Variant hook."""
    from engine.variant import Variant
    if not (isinstance(cls, type) and issubclass(cls, Plugin)):
        raise ValueError(f"not a Plugin subclass ({cls!r})")
    name = cls.plugin_name
    if not name or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_\-]*", name):
        raise ValueError(f"a plugin needs a name of letters, digits, - and _ ({name!r})")
    stray = sorted(n for n in hooks_of(cls) if not hasattr(Variant, n))
    if stray:
        raise ValueError(f"plugin {name}: not Variant hooks ({', '.join(stray)}); "
                         f"helpers must start with _")
    _registered[name] = cls
    _broken.pop(name, None)
    return cls


def _scan() -> None:
    """Register the entry points of installed packages (once; ``rescan`` repeats it)."""
    from importlib import metadata      # (imported here: it costs start-up time)
    global _scanned
    _scanned = True
    for ep in metadata.entry_points(group=GROUP):
        if ep.name in _registered or ep.name in BUILTIN:
            continue
        try:
            cls = ep.load()
            if getattr(cls, "plugin_name", "") != ep.name:
                raise ValueError(f"its class names itself {getattr(cls, 'plugin_name', '')!r}")
            register(cls)
        except Exception as e:        # a broken package must not stop the engine
            _broken[ep.name] = f"{type(e).__name__}: {e}"


def rescan() -> None:
    """Read the installed packages' entry points again (after installing one)."""
    _scan()


def get(name: str) -> type[Plugin]:
    """The plugin class called ``name``: KeyError when there is none, PluginLoadError when
    its package cannot be loaded."""
    if name in _registered:
        return _registered[name]
    if name in BUILTIN:
        module, _, attr = BUILTIN[name].partition(":")
        return register(getattr(importlib.import_module(module), attr))
    if not _scanned:
        _scan()
    if name in _broken:
        raise PluginLoadError(_broken[name])
    return _registered[name]


def names() -> list[str]:
    """Every plugin name known: cellfish's own, then installed and registered ones."""
    if not _scanned:
        _scan()
    return list(BUILTIN) + sorted(n for n in _registered if n not in BUILTIN)


def keys() -> frozenset[str]:
    """The file keys that name plugins: ``plugins`` and every plugin's own key."""
    out = {PLUGINS_KEY}
    for n in names():
        try:
            out.add(get(n).plugin_key)
        except (KeyError, PluginLoadError):
            pass
    return frozenset(out)


def split_names(value: str) -> list[str]:
    """Plugin names of a key's value: separated by spaces, commas or '|'; '-' is none."""
    return [n for n in re.split(r"[\s,|]+", value.strip()) if n and n != "-"]


def compose(selected: list[tuple[str, str]], keys: dict[str, str]) -> tuple[type, ...]:
    """The plugin classes for (key, name) pairs of a section, in file order, after checking
    that each exists, is named by its own key, shares no hook with another, and accepts the
    section (``plugin_check``).  Raises PluginError naming the key and the plugin."""
    out: list[type[Plugin]] = []
    owner: dict[str, str] = {}
    for key, name in selected:
        try:
            cls = get(name)
        except KeyError:
            raise PluginError(key, "unknown plugin", name) from None
        except PluginLoadError as e:
            raise PluginError(key, f"plugin cannot be loaded: {e}", name) from None
        except Exception as e:        # a built-in module failing to import is a bug, said
            raise PluginError(key, f"plugin cannot be loaded: {type(e).__name__}: {e}",
                              name) from None
        if cls.plugin_key != key:
            raise PluginError(key, f"this plugin is named by the key {cls.plugin_key}", name)
        if cls in out:
            raise PluginError(key, "plugin named twice", name)
        for hook in sorted(hooks_of(cls) - CHAINED):
            if hook in owner:
                raise PluginError(key, f"plugins {owner[hook]} and {name} both define {hook}",
                                  name)
            owner[hook] = name
        cls.plugin_check(keys)
        out.append(cls)
    return tuple(out)
