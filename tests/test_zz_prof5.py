import time, uuid, datetime, urllib.parse, cProfile
from benchmarks.page_requests import ron_requests

def test_parts(member, other_member, coordinator, outsider, monkeypatch):
    from django.test import Client
    from django.template.loader import get_template
    from scoring.ledger import hanchan_start, hand_record
    import scoring.views.table as T
    captured = {}
    orig = T.render
    def grab(request, template, context, status=200):
        captured["ctx"] = context; captured["req"] = request
        return orig(request, template, context, status=status)
    monkeypatch.setattr(T, "render", grab)
    members = [member, other_member, coordinator, outsider]
    client = Client(headers={"hx-request": "true"})
    client.force_login(member.user)
    game = hanchan_start(ruleset_id="makura-1.5", members=members, played_on=datetime.date(2026, 11, 22)).pk
    hand_record(hanchan_id=game, hand={"result": "draw", "tenpai": [0]}, expected_version=0, request_id=uuid.uuid4())
    sent = list(ron_requests(str(uuid.uuid4()), 1))[0]
    body = urllib.parse.urlencode(sent.fields, doseq=True)
    r = client.post(f"/games/{game}/hands/{sent.path}", body, content_type="application/x-www-form-urlencoded")
    ctx, req = captured["ctx"], captured["req"]
    tpl = get_template("scoring/table_hand_added.html")
    for _ in range(20): tpl.render(ctx, req)
    prof = cProfile.Profile(time.process_time); prof.enable()
    for _ in range(200): tpl.render(ctx, req)
    prof.disable(); prof.dump_stats("/tmp/probe/render.prof")
