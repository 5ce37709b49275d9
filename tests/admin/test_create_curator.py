"""manage.py create_curator: a staff account in the Curators group, password checked."""

import io

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db

GOOD = "a-long-curator-passphrase"


def create(*args, **options):
    out = io.StringIO()
    call_command("create_curator", *args, stdout=out, **options)
    return out.getvalue()


def test_creates_a_staff_curator_from_the_environment(monkeypatch):
    monkeypatch.setenv("CURATOR_PASSWORD", GOOD)
    out = create("cora", "--email", "cora@example.org")
    assert "Curator 'cora' created" in out
    user = User.objects.get(username="cora")
    assert (user.email, user.is_staff, user.is_superuser, user.is_active) == (
        "cora@example.org",
        True,
        False,
        True,
    )
    assert list(user.groups.values_list("name", flat=True)) == ["Curators"]
    assert user.check_password(GOOD)
    assert user.has_perm("catalogue.change_paper")
    assert not user.has_perm("catalogue.delete_paper")


def test_the_password_variable_can_be_named(monkeypatch):
    monkeypatch.delenv("CURATOR_PASSWORD", raising=False)
    monkeypatch.setenv("CORA_PW", GOOD)
    create("cora", "--password-env", "CORA_PW", "--noinput")
    assert User.objects.get(username="cora").check_password(GOOD)


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("short", "This password is too short"),
        ("password123", "This password is too common"),
        ("83749284710", "This password is entirely numeric"),
        ("cora-example", "The password is too similar to the username"),
    ],
)
def test_password_validators_apply(monkeypatch, password, message):
    monkeypatch.setenv("CURATOR_PASSWORD", password)
    with pytest.raises(CommandError, match=message):
        create("cora-example", "--email", "x@example.org")
    assert not User.objects.exists()


def test_an_existing_username_is_refused(monkeypatch):
    User.objects.create_user("cora")
    monkeypatch.setenv("CURATOR_PASSWORD", GOOD)
    with pytest.raises(CommandError, match="already exists"):
        create("cora")
    assert not User.objects.get(username="cora").is_staff


def test_a_bad_email_is_refused(monkeypatch):
    monkeypatch.setenv("CURATOR_PASSWORD", GOOD)
    with pytest.raises(CommandError, match="valid email"):
        create("cora", "--email", "not-an-email")
    assert not User.objects.exists()


def test_without_a_password_and_without_a_terminal_it_fails(monkeypatch):
    monkeypatch.delenv("CURATOR_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="set CURATOR_PASSWORD"):
        create("cora", "--noinput")
    assert not User.objects.exists()


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_asks_for_the_password_twice_at_a_terminal(monkeypatch):
    monkeypatch.delenv("CURATOR_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin", _Terminal())
    answers = iter([GOOD, GOOD])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    create("cora")
    assert User.objects.get(username="cora").check_password(GOOD)


def test_two_different_answers_are_refused(monkeypatch):
    monkeypatch.delenv("CURATOR_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin", _Terminal())
    answers = iter([GOOD, GOOD + "x"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    with pytest.raises(CommandError, match="differ"):
        create("cora")
    assert not User.objects.exists()


def test_without_the_curators_group_it_says_to_migrate(monkeypatch):
    Group.objects.filter(name="Curators").delete()
    monkeypatch.setenv("CURATOR_PASSWORD", GOOD)
    with pytest.raises(CommandError, match="migrate"):
        create("cora")
    assert not User.objects.exists()
