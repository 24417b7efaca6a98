"""An independent OAuth 2.0 / OIDC provider for remote mode's optional test: django-oauth-toolkit
(DOT), unchanged, in a throwaway Django site. oauth-provider.test.mjs installs DOT into a temporary
venv and runs `python dot_site.py setup DIR` then `python dot_site.py serve DIR PORT`.

DOT's own views answer every OAuth call, routed at AM's paths under /am/oauth2/realms/root/realms/alpha/
so the bridge's default endpoint layout finds them (DOT's discovery document has no
revocation_endpoint, which the SDKs require). A provider has no journeys, so AM's authenticate and
sessions endpoints are the one part played here: a Username/Password step that logs the Django
user in and answers its session key as the tokenId, and validate/logout of that session. The
bridge then sends it as the `sessionid` cookie, which is how DOT's authorize view sees the user.
"""
import json
import os
import sys

DIR = sys.argv[2]
CLIENT_ID = "ReactNativeOAuthClient"
REDIRECT_URI = "https://com.example.reactnative.todo/callback"

from django.conf import settings  # noqa: E402

settings.configure(
    DEBUG=False,
    SECRET_KEY="dot-site-for-a-test-only",
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions", "oauth2_provider"],
    MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware", "django.contrib.auth.middleware.AuthenticationMiddleware"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(DIR, "db.sqlite3")}},
    USE_TZ=True,
    OAUTH2_PROVIDER={
        "OIDC_ENABLED": True,
        "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
        "OIDC_RSA_PRIVATE_KEY": open(os.path.join(DIR, "rsa.pem")).read() if os.path.exists(os.path.join(DIR, "rsa.pem")) else "",
        "SCOPES": {"openid": "OpenID Connect", "profile": "Profile", "email": "Email"},
        "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
        "PKCE_REQUIRED": True,
    },
)

import django  # noqa: E402

django.setup()

from django.contrib.auth import authenticate, login, logout  # noqa: E402
from django.http import JsonResponse  # noqa: E402
from django.urls import include, path  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402
from oauth2_provider import views  # noqa: E402
from oauth2_provider.views.oidc import UserInfoView  # noqa: E402

STEP = {
    "authId": "dot-site",
    "callbacks": [
        {"type": "NameCallback", "output": [{"name": "prompt", "value": "User Name"}], "input": [{"name": "IDToken1", "value": ""}]},
        {"type": "PasswordCallback", "output": [{"name": "prompt", "value": "Password"}], "input": [{"name": "IDToken2", "value": ""}]},
    ],
}


@csrf_exempt
def authenticate_view(request):
    body = json.loads(request.body or b"{}")
    if not body.get("callbacks"):
        return JsonResponse(STEP)
    values = {i["name"]: i["value"] for c in body["callbacks"] for i in c.get("input", [])}
    user = authenticate(request, username=values.get("IDToken1"), password=values.get("IDToken2"))
    if user is None:
        return JsonResponse({"code": 401, "reason": "Unauthorized", "message": "Login failure"}, status=401)
    login(request, user)
    request.session.save()
    return JsonResponse({"tokenId": request.session.session_key, "successUrl": "/", "realm": "/alpha"})


@csrf_exempt
def sessions_view(request):
    action = request.GET.get("_action")
    if action == "validate":
        return JsonResponse({"valid": request.user.is_authenticated})
    if action == "logout":
        logout(request)
        return JsonResponse({"result": "Successfully logged out"})
    return JsonResponse({"code": 400, "message": f"unknown action {action}"}, status=400)


AM_OAUTH = "am/oauth2/realms/root/realms/alpha/"
urlpatterns = [
    path("am/json/realms/root/realms/alpha/authenticate", authenticate_view),
    path("am/json/realms/root/realms/alpha/sessions", sessions_view),
    path(AM_OAUTH + "authorize", views.AuthorizationView.as_view()),
    path(AM_OAUTH + "access_token", views.TokenView.as_view()),
    path(AM_OAUTH + "userinfo", UserInfoView.as_view()),
    path(AM_OAUTH + "token/revoke", views.RevokeTokenView.as_view()),
    path(AM_OAUTH + "introspect", views.IntrospectTokenView.as_view()),
    path(AM_OAUTH + "connect/endSession", views.RPInitiatedLogoutView.as_view()),
    # DOT at its own paths too: its discovery document (o/.well-known/openid-configuration) names them.
    path("o/", include("oauth2_provider.urls")),
]

if __name__ == "__main__":
    from django.core.management import call_command

    if sys.argv[1] == "setup":
        from django.contrib.auth.models import User
        from oauth2_provider.models import Application

        call_command("migrate", verbosity=0)
        User.objects.create_user("demo", password="Ch4ng3it!")
        Application.objects.create(
            client_id=CLIENT_ID, name="bridge", client_type=Application.CLIENT_PUBLIC,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, redirect_uris=REDIRECT_URI,
            post_logout_redirect_uris=REDIRECT_URI, skip_authorization=True, algorithm=Application.RS256_ALGORITHM,
        )
    else:
        call_command("runserver", f"127.0.0.1:{sys.argv[3]}", use_reloader=False, verbosity=0)
