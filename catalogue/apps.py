from django.apps import AppConfig


class CatalogueConfig(AppConfig):
    name = "catalogue"

    def ready(self):
        from catalogue import checks  # noqa: F401  (registers the system checks)
