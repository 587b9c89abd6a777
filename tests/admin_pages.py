"""What the admin tests do on the Django admin's pages, one definition each: a page's
address (`admin_url`), an inline's management form (`inline_management`), a change page
posted back as shown (`posted_back`, `save_as_shown`), both steps of the list's "delete
selected" (`bulk_delete`), every way to delete a row, each of which must refuse
(`refused_delete`), the messages a response left (`said`), and a row's stored fields to
compare before and after (`snapshot`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.messages import get_messages
from django.db.models import Model
from django.urls import reverse

from scoring.admin import guards as admin_guards


def admin_url(model: type[Model], view: str, *args: object) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def inline_management(prefix: str, total: int, initial: int) -> dict[str, Any]:
    return {
        f"{prefix}-TOTAL_FORMS": total,
        f"{prefix}-INITIAL_FORMS": initial,
        f"{prefix}-MIN_NUM_FORMS": 0,
        f"{prefix}-MAX_NUM_FORMS": 1000,
    }


def posted_back(response: Any, **changes: Any) -> dict[str, Any]:
    """What a change page posts when saved as shown (its form and inlines), with `changes`.

    Disabled and read-only fields are left out, as a browser does.
    """
    data: dict[str, Any] = {}

    def add(form: forms.BaseForm) -> None:
        for name, field in form.fields.items():
            if field.disabled:
                continue
            value = form[name].value()
            key = form.add_prefix(name)
            if isinstance(field, forms.BooleanField):
                if value:
                    data[key] = "on"
            elif isinstance(value, list | tuple):
                data[key] = [str(item) for item in value]
            else:
                data[key] = "" if value is None else value

    add(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
        for form in formset.forms:
            add(form)
    data.update(changes)
    return data


def save_as_shown(client: Any, obj: Model, **changes: Any) -> Any:
    """POST the object's change page back, as shown plus `changes`."""
    url = admin_url(type(obj), "change", obj.pk)
    page = client.get(url)
    assert page.status_code == 200
    return client.post(url, posted_back(page, **changes))


def bulk_delete(client: Any, rows: list[Model]) -> list[Any]:
    """Both steps of the list's "delete selected": the choice and the confirmation."""
    url = admin_url(type(rows[0]), "changelist")
    selected = [row.pk for row in rows]
    chosen = client.post(
        url, {"action": "delete_selected", "_selected_action": selected, "index": 0}
    )
    confirmed = client.post(
        url, {"action": "delete_selected", "_selected_action": selected, "post": "yes"}
    )
    return [chosen, confirmed]


def said(response: Any) -> str:
    """The messages a response left for the next page, as one text."""
    return " ".join(str(message) for message in get_messages(response.wsgi_request))


def refused_delete(client: Any, obj: Model) -> str:
    """Try every way to delete `obj` in the admin; each must refuse (no 500). Returns what
    the list's bulk delete said. A row deleted by a service (`DeletedByServiceAdmin`):
    its delete page sends back to the row's page, saying why; any other: 403."""
    model = type(obj)
    by_service = isinstance(admin.site._registry[model], admin_guards.DeletedByServiceAdmin)
    for page in (
        client.get(admin_url(model, "delete", obj.pk)),
        client.post(admin_url(model, "delete", obj.pk), {"post": "yes"}),
    ):
        if by_service:
            assert page.status_code == 302 and page.url == admin_url(model, "change", obj.pk)
            assert said(page)
        else:
            assert page.status_code == 403
    chosen, confirmed = bulk_delete(client, [obj])
    assert chosen.status_code == confirmed.status_code == 302
    assert model._default_manager.filter(pk=obj.pk).exists()
    return said(chosen)


def snapshot(obj: Model) -> dict[str, Any]:
    """Every stored field of `obj`, to compare before and after."""
    fresh = type(obj)._default_manager.get(pk=obj.pk)
    return {field.attname: getattr(fresh, field.attname) for field in fresh._meta.concrete_fields}
