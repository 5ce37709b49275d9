"""OpenAPI generation: every operation documents its errors and headers, not only its 200."""

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers


class ErrorDetailSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What went wrong, in words.")


BAD_REQUEST = OpenApiResponse(
    response={
        "type": "object",
        "description": "Each invalid parameter, by name, with what was expected.",
        "additionalProperties": {"type": "array", "items": {"type": "string"}},
    },
    description="A parameter is unknown to this resource, or its value invalid; the body names it.",
)
NOT_FOUND = OpenApiResponse(ErrorDetailSerializer, description="No such object, or a page past the last.")
THROTTLED = OpenApiResponse(
    ErrorDetailSerializer, description="Too many requests from this address; retry after Retry-After seconds."
)
NOT_MODIFIED = OpenApiResponse(description="Not modified: the copy named by If-None-Match is current.")


class CatalogueAutoSchema(AutoSchema):
    def _is_detail(self) -> bool:
        return getattr(self.view, "etag", False)

    def get_response_serializers(self):
        ok = super().get_response_serializers()
        responses = dict(ok) if isinstance(ok, dict) else {200: ok}
        if self._is_detail():
            responses[304] = NOT_MODIFIED
        responses[400] = BAD_REQUEST  # every resource refuses a parameter it does not read
        responses[404] = NOT_FOUND
        responses[429] = THROTTLED
        return responses

    def get_override_parameters(self):
        params = [
            *super().get_override_parameters(),
            OpenApiParameter(
                "Retry-After",
                OpenApiTypes.INT,
                OpenApiParameter.HEADER,
                response=[429],
                description="Seconds to wait before the next request.",
            ),
            *(
                OpenApiParameter(name, OpenApiTypes.STR, OpenApiParameter.QUERY, description=text)
                for name, text in getattr(self.view, "query_params", {}).items()
            ),
        ]
        if self._is_detail():
            params += [
                OpenApiParameter(
                    "ETag",
                    OpenApiTypes.STR,
                    OpenApiParameter.HEADER,
                    response=[200],
                    description="Version of this representation; send it back in If-None-Match.",
                ),
                OpenApiParameter(
                    "If-None-Match",
                    OpenApiTypes.STR,
                    OpenApiParameter.HEADER,
                    description="An ETag from an earlier response: 304 if the object has not changed.",
                ),
            ]
        return params
