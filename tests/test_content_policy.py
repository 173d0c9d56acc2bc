"""The Content-Security-Policy header, its policy built once (republic/content_policy.py): the header django-csp
builds for every answer, and django-csp's own where an answer asks a policy of its own or a nonce."""

import pytest
from csp.decorators import csp_update
from csp.exceptions import CSPNonceError
from csp.middleware import CSPMiddleware
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import RequestFactory

from republic.content_policy import OnePolicy, _policy

HEADER = "Content-Security-Policy"


def _answered(view):
    return OnePolicy(view)(RequestFactory().get("/"))[HEADER], CSPMiddleware(view)(RequestFactory().get("/"))[HEADER]


def test_every_answer_has_the_policy_django_csp_builds_from_the_settings(client):
    assert client.get("/")[HEADER] == build_policy()
    built = _policy.cache_info().misses
    assert client.get("/chart/")[HEADER] == build_policy() and _policy.cache_info().misses == built  # not again
    ours, theirs = _answered(lambda request: HttpResponse("a page"))
    assert ours == theirs == build_policy()


def test_an_answer_that_asks_a_policy_of_its_own_is_given_it():
    ours, theirs = _answered(csp_update({"img-src": "https://maps.example.org"})(lambda request: HttpResponse("")))
    assert "https://maps.example.org" in ours and ours == theirs != build_policy()


def test_a_nonce_asked_once_the_header_is_written_is_refused():
    request = RequestFactory().get("/")
    OnePolicy(lambda request: HttpResponse(""))(request)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)


def test_a_policy_set_anew_is_the_one_given(client, settings):
    client.get("/")
    settings.CONTENT_SECURITY_POLICY = {
        "DIRECTIVES": {"default-src": ["'self'"], "img-src": ["https://maps.example.org"]}
    }
    header = client.get("/")[HEADER]
    assert header == build_policy()
    assert set(header.split("; ")) == {"default-src 'self'", "img-src https://maps.example.org"}
