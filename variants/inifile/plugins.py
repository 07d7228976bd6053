"""The plugin keys of a variants file: which plugins a section names (``plugins = alice``, or
a plugin's own key), turned into the classes its Variant class is built from
(variants/plugins/__init__.py holds the registry)."""
from __future__ import annotations

from variants import plugins as registry


def plugin_keys() -> frozenset[str]:
    """The file keys that name plugins (``plugins`` and every known plugin's own key)."""
    return registry.keys()


def plugin_bases(val: dict[str, str], error: type) -> tuple[type, ...]:
    """The plugin classes a section names, in key order then name order; ``error(key, what,
    token)`` is raised for an unknown plugin, a plugin under another's key, two plugins
    defining one hook, or a section the plugin cannot play."""
    pkeys = plugin_keys()
    selected = [(k, name) for k, v in val.items() if k in pkeys
                for name in registry.split_names(v)]
    if not selected:
        return ()
    try:
        return registry.compose(selected, val)
    except registry.PluginError as e:
        raise error(e.key, e.what, e.token) from None
