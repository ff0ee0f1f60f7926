"""The API documentation page before Swagger UI has drawn it, at 1280 and 390 px: a new reader
saw Swagger UI's 「LOADING」 for about 6 s (it draws nothing until it has fetched the schema, which
the server builds the first time in seconds) and no way back to the site. The page now links back
and lists every endpoint itself (api.docs), hidden once Swagger UI has drawn them."""
import re

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_api_documentation_shows_the_endpoints_and_a_way_back_before_swagger_ui_draws(site, tabs, device):
    tab = tabs(device, server_csp=True)
    page = tab.page
    held = []
    # the schema held back, as on a server building it: what the page shows meanwhile
    page.route(re.compile(r"/api/schema/"), lambda route: held.append(route))
    page.goto(site + "/api/docs/")
    page.wait_for_function("() => true")
    assert page.locator(".api-docs-nav a").all_inner_texts() == ["← 經注閱讀 (the site)", "檢索 (search)", "API root", "ReDoc"]
    assert page.locator(".api-docs-nav a").first.get_attribute("href") == "/"
    endpoints = page.locator(".api-endpoints li")
    assert endpoints.count() == 28  # with the two juans' layer checks (by edition, by work)
    assert endpoints.nth(0).inner_text() == "GET /api/ Where the API starts."
    rows = endpoints.all_inner_texts()
    assert "GET /api/works/ The works held." in rows
    assert "GET /api/search/distribution/ Only the totals and the hits per juan and per section, for charts." in rows
    assert page.locator(".api-endpoints").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert tab.axe() == []
    tab.shot("api-docs-before-the-schema")
    # the schema sent: Swagger UI draws the operations, the list is hidden, the way back stays
    assert held
    for route in held:
        route.continue_()
    page.unroute(re.compile(r"/api/schema/"))
    page.wait_for_selector("#swagger-ui .opblock")
    page.locator(".api-endpoints").wait_for(state="hidden")
    assert page.locator(".api-docs-nav a").first.is_visible()
    tab.shot("api-docs-drawn")
