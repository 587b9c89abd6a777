"""Django's own user and group admins, registered again with the input checks of every
admin of ours: their groups and permissions are many-to-many choices a crafted POST could
fail with HTTP 500, and the permissions are listed in the reader's language
(`troefclub.admin_input.PermissionsField`).
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin as DjangoGroupAdmin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import Group, User

from troefclub.admin_input import AdminInputMixin

# Django's own user admin, with the input checks of every admin of ours: its groups and
# permissions are many-to-many choices a crafted POST could fail with HTTP 500.
admin.site.unregister(User)
admin.site.unregister(Group)


@admin.register(User)
class UserAdmin(AdminInputMixin, DjangoUserAdmin):
    """Django's `UserAdmin`, unchanged but for `AdminInputMixin`."""


@admin.register(Group)
class GroupAdmin(AdminInputMixin, DjangoGroupAdmin):
    """Django's `GroupAdmin`, unchanged but for `AdminInputMixin`."""
