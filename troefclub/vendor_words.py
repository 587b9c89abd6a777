"""The words of the packages troefclub shows that their own Dutch catalogues lack (issue 18:
English on Dutch pages): the newest texts of Django's admin (5.2), django-simple-history's
history pages and django-axes' login records, which have no Dutch at all.

Gettext finds a text by its words, whichever package asks: a package's `_("Access logs")`
reads the Dutch of our catalogue (`locale/nl/LC_MESSAGES/django.po`). Marked here (never
used), so `makemessages` keeps them in that catalogue and `tests/test_translations.py`
holds them to a translation. What a package writes without marking it for translation
(django-axes' names of its rows, "Attempted Access: …") can't be reached this way and
stays as the package writes it. The admin's JavaScript texts are in
`locale/nl/LC_MESSAGES/djangojs.po` (kept by hand: `makemessages` only extracts ours).
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

DJANGO_ADMIN = (
    gettext_noop("Error:"),
    gettext_noop("Forgotten your login credentials?"),
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
    gettext_noop("After you’ve created a user, you’ll be able to edit more user options."),
    gettext_noop("In case you’ve forgotten, you are:"),
)

SIMPLE_HISTORY = (
    gettext_noop("View history: %s"),
    gettext_noop("Change history: %s"),
    gettext_noop('The %(name)s "%(obj)s" was changed successfully.'),
    gettext_noop("You may edit it again below"),
    gettext_noop("View %s"),
    gettext_noop("Revert %s"),
    gettext_noop("Created"),
    gettext_noop("Changed"),
    gettext_noop("Deleted"),
    gettext_noop("Deleted %(type_name)s"),
    gettext_noop("Revert"),
    gettext_noop("Change History"),
    gettext_noop("View %(verbose_name)s"),
    gettext_noop("Revert %(verbose_name)s"),
    gettext_noop("Press the 'Revert' button below to revert to this version of the object."),
    gettext_noop("Press the 'Change History' button below to edit the history."),
    gettext_noop(
        "Choose a date from the list below to revert to a previous version of this object."
    ),
    gettext_noop("This object doesn't have a change history."),
    gettext_noop("Comment"),
    gettext_noop("Changed by"),
    gettext_noop("Change reason"),
    gettext_noop("Changes"),
)

AXES = (
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("Access Attempt"),
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
    gettext_noop("User Agent"),
    gettext_noop("IP Address"),
    gettext_noop("Username"),
    gettext_noop("HTTP Accept"),
    gettext_noop("Path"),
    gettext_noop("Attempt Time"),
    gettext_noop("Access lock out"),
    gettext_noop("GET Data"),
    gettext_noop("POST Data"),
    gettext_noop("Failed Logins"),
    gettext_noop("Expires At"),
    gettext_noop("The time when access attempt expires and is no longer valid."),
    gettext_noop("Logout Time"),
    gettext_noop("Session key hash (sha256)"),
    gettext_noop("Locked Out"),
    gettext_noop("Form Data"),
    gettext_noop("Meta Data"),
    gettext_noop("Clean up expired attempts"),
    gettext_noop("Not set"),
    gettext_noop("Attempt Remaining"),
    gettext_noop("Account locked: too many login attempts. Please try again later."),
    gettext_noop(
        "Account locked: too many login attempts. Contact an admin to unlock your account."
    ),
)
