"""A second factor for staff: TOTP codes from an authenticator app (django-otp).

- ``apps.CuratorAdminConfig`` makes ``site.CuratorAdminSite`` the default admin site.
- ``backends.PasswordAndTOTPBackend`` checks the password and, for a user who has set up an
  authenticator, its current code: a wrong or missing code fails the login as a wrong password
  does, so django-axes counts it.
- ``site.CuratorAdminSite`` lets staff in only once the session gave a code, or when the user has
  no authenticator and ``ADMIN_REQUIRE_2FA`` is off; with it on, staff without one are sent to
  set one up (``views.two_factor``, at ``ADMIN_PATH/2fa/``) first.

Nothing here is imported while settings load: ``apps`` only names the site class.
"""
