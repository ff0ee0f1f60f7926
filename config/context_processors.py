"""What every page's template knows about the visitor, without spoiling the page cache."""
from django.utils.functional import SimpleLazyObject

from config.clients import signed_in


def account(request) -> dict:
    """``{"signed_in": bool}`` for the footer of ``templates/base.html``, which offers 登入 to
    a visitor and the account's name with 登出 to a signed-in user.

    Read from the session cookie by ``config.clients.signed_in`` (one session read, only
    when there is a cookie, and only if the template asks) without touching
    ``request.session``: an anonymous visitor's page stays one the page cache may keep and
    share. A signed-in user's requests go around the page cache, so naming them is safe."""
    return {"signed_in": SimpleLazyObject(lambda: signed_in(request))}
