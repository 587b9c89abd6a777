"""Django's own user admin, registered again with the input checks of every admin of ours:
its groups and permissions are many-to-many choices a crafted POST could fail with
HTTP 500.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import User

from troefclub.admin_input import AdminInputMixin

# Django's own user admin, with the input checks of every admin of ours: its groups and
# permissions are many-to-many choices a crafted POST could fail with HTTP 500.
admin.site.unregister(User)


@admin.register(User)
class UserAdmin(AdminInputMixin, DjangoUserAdmin):
    """Django's `UserAdmin`, unchanged but for `AdminInputMixin`."""
