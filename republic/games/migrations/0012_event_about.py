"""What each event is about, kept with it: worked out for the events recorded before, as the ledger worked it out
then (its row, the rows it changed, the units its payload names)."""

import json
import re

from django.db import migrations, models

NAMED_UNIT = re.compile(r'"unit:(\d+)"')
BATCH = 500


def _about(subject, changes, payload):
    found = {subject.replace("-", ":", 1)} if re.fullmatch(r"[a-z]+-\d+", subject or "") else set()
    found |= {f"{change['model']}:{change['id']}" for change in changes}
    return sorted(found | {f"unit:{pk}" for pk in NAMED_UNIT.findall(json.dumps(payload))})


def fill(apps, schema_editor):
    Event = apps.get_model("games", "Event")
    batch = []
    for event in Event.objects.only("subject", "changes", "payload").iterator(chunk_size=BATCH):
        event.about = _about(event.subject, event.changes, event.payload)
        batch.append(event)
        if len(batch) == BATCH:
            Event.objects.bulk_update(batch, ["about"])
            batch = []
    Event.objects.bulk_update(batch, ["about"])


class Migration(migrations.Migration):
    dependencies = [("games", "0011_sign_in_version")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="about",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="the pieces it is about ('unit:12'): its row, those it changed or names",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
