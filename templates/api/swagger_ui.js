{% comment %}
drf-spectacular's Swagger UI start-up script without the CSRF token: the API is read-only and
takes no session, so the token is never needed, and reading it would set a CSRF cookie for every
anonymous reader of the docs (tests/ops/test_security.py: anonymous readers get no cookie).
{% endcomment %}{% include "drf_spectacular/swagger_ui.js" with csrf_token="" %}
