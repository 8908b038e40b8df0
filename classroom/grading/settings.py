"""Refuse a wrong grading configuration before a grade is touched: a typo must stop the run, not grade a class wrongly.

nbgrader (through traitlets) only warns about an option it does not know, and finds a plugin that cannot be imported
only when the first submission reaches it. `problems(config)` looks first: every section names a known class, every
option is one that class has, every value is one it accepts, and every preprocessor and plugin of the autograde and
feedback pipelines can be imported and built. Each problem is one sentence saying what to fix.

The classes it knows are those imported: nbgrader's own, and every class the configuration names as a plugin (an
option that takes a class, such as c.ZipCollectApp.collector_plugin), imported here; so the classes such a plugin's
module brings along (classroom.lms's LmsRoster, say) are known too, and nothing here imports them by name.
"""
from traitlets import TraitError, Type
from traitlets.config import Config
from traitlets.config.configurable import Configurable
from traitlets.utils.importstring import import_item

from ..wording import code, did_you_mean

PIPELINES = [("Autograde", "sanitize_preprocessors"), ("Autograde", "autograde_preprocessors"),
             ("GenerateFeedback", "preprocessors")]


def _configurables():
    """{class name: [every configurable class of that name]}: a section of the configuration applies to each of them
    (nbgrader has two `Exchange` classes, an abstract one without `root` and the one that reads it)."""
    import nbgrader.apps  # noqa: F401 (imports every nbgrader class that reads configuration)
    import nbgrader.exchange  # noqa: F401
    import nbgrader.plugins  # noqa: F401

    seen, todo = {}, [Configurable]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in seen.setdefault(sub.__name__, []):
                seen[sub.__name__].append(sub)
                todo.append(sub)
    return seen


def _pipeline_classes(config, known, found):
    classes = []
    for section, option in PIPELINES:
        default = known[section][0].class_traits()[option].default() if section in known else []
        for item in config[section][option] if option in config.get(section, {}) else default:
            if not isinstance(item, str):
                classes.append(item)
                continue
            try:
                classes.append(import_item(item))
            except Exception as exc:  # ImportError, AttributeError, or an error inside the module
                found.append(f"`c.{section}.{option}` lists `{item}`, which cannot be imported ({exc})")
    return classes


def _plugin_classes(config, known, found):
    """Import every class the configuration gives an option that takes a class; [(section, option, name)] of those
    that cannot be imported. Repeated while an import makes more sections known."""
    tried = set()
    while True:
        todo = [(section, option, value) for section, options in config.items() if section in known
                for option, value in options.items() if isinstance(value, str) and (section, option) not in tried
                and any(isinstance(cls.class_traits().get(option), Type) for cls in known[section])]
        if not todo:
            return known
        for section, option, value in todo:
            tried.add((section, option))
            trait = next(cls.class_traits()[option] for cls in known[section]
                         if isinstance(cls.class_traits().get(option), Type))
            try:
                trait._resolve_string(value)  # the trait's own reading: an import path, or a short name it knows
            except Exception as exc:  # ImportError, AttributeError, or an error inside the module
                found.append(f"`c.{section}.{option}` names `{value}`, which cannot be imported ({exc})")
        known = _configurables()


def problems(config):
    """[sentence] describing every problem of `config` (a traitlets Config, as nbgrader loaded it)."""
    from .design import conflicts

    found = conflicts(config)
    classes = _pipeline_classes(config, _configurables(), found)
    known = _plugin_classes(config, _configurables(), found)  # the pipeline's and the plugins' classes imported
    for section in sorted(k for k in config if k[:1].isupper() and isinstance(config[k], Config) and config[k]):
        same_name = known.get(section)
        if same_name is None:
            hint = did_you_mean(section, known, code)
            if hint:  # a section for some other program would have no close nbgrader name
                found.append(f"the configuration sets options of `{section}`, which no grading class has{hint}")
            continue
        options = {name for cls in same_name for name in cls.class_trait_names(config=True)}
        for option in sorted(config[section]):
            if option not in options:
                found.append(f"`c.{section}.{option}` is not an option of "
                             f"{section}{did_you_mean(option, options, code)}")
    for cls in classes:
        try:
            instance = cls(config=config)
            plugin = getattr(instance, "plugin_class", None)
            if isinstance(plugin, type):
                plugin(config=config)
        except (TraitError, ValueError, TypeError, ImportError) as exc:
            found.append(f"{cls.__name__} rejects its configuration: {exc}")
    return found
