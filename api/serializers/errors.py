"""The one JSON shape of every refusal (`api.errors`), as the schema names it: "Error"."""

from __future__ import annotations

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """Every refusal (`api.errors`): a stable `code`, the `message` in the reader's
    language (Accept-Language), and where they apply the rule's `params`, the `place`
    (a round, a field) and the errors by field or filter (`fields`, a 400)."""

    code = serializers.CharField()
    message = serializers.CharField()
    params = serializers.DictField(required=False)
    place = serializers.DictField(required=False)
    fields = serializers.DictField(required=False)

    class Meta:
        ref_name = "Error"
