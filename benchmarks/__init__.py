"""Benchmarks run by ``make bench`` (speed targets live here, never in timed tests).

Every benchmark process works as the site's one club's, as ``manage.py``'s commands do
(``clubsite.club_scope.site_scope``; docs/clubs.md): entered here, once per process, before
any module of the package runs."""

from clubsite.club_scope import site_scope

_SITE_SCOPE = site_scope()
_SITE_SCOPE.__enter__()
