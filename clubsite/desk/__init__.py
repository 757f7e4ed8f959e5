"""The steward's desk: members kept without Django's admin.

- :mod:`clubsite.desk.members`: the member form and the writes (add in one step, edit,
  deactivate, lift a login lockout);
- :mod:`clubsite.desk.welcome`: the welcome e-mail with a link to choose a password, a task;
- :mod:`clubsite.desk.views`: the pages, for stewards only
  (:func:`clubsite.permissions.desk_steward`).

The venues are the meetups' (``meetings.venue_desk``): the apps build on clubsite, not the
other way round.
"""
