"""A venue's network (config.clients): the addresses that many tables share, named in
SHARED_ADDRESSES, get room for each table in every per-client bound; any other keeps its own."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.clients import (
    CONNECTIONS_A_TABLE,
    STREAMS_A_TABLE,
    room_for,
    shared_addresses,
    tables_behind,
)

VENUES = "203.0.113.7=150, 198.51.100.0/28=40, 2001:db8:1::/48=20"


@pytest.mark.parametrize(
    ("address", "tables"),
    [
        ("203.0.113.7", 150),
        ("203.0.113.8", 0),
        ("198.51.100.9", 40),
        ("198.51.100.16", 0),
        ("::ffff:203.0.113.7", 150),  # an IPv4 client through an IPv6 socket
        ("2001:db8:1:2::5", 20),
        ("unknown", 0),
    ],
)
def test_the_tables_behind_an_address(address, tables):
    assert tables_behind(address, VENUES) == tables


def test_a_shared_address_has_room_for_each_table_and_no_bound_stays_none():
    assert room_for(96, CONNECTIONS_A_TABLE, "203.0.113.7", VENUES) == 96 + 6 * 150
    assert room_for(48, STREAMS_A_TABLE, "203.0.113.7", VENUES) == 48 + 3 * 150
    assert room_for(96, CONNECTIONS_A_TABLE, "203.0.113.8", VENUES) == 96
    assert room_for(0, CONNECTIONS_A_TABLE, "203.0.113.7", VENUES) == 0
    assert room_for(96, CONNECTIONS_A_TABLE, "203.0.113.7", "") == 96


@pytest.mark.parametrize("setting", ["203.0.113.7", "203.0.113.7=many", "venue=10", "1.2.3.4=0"])
def test_a_malformed_setting_is_refused_loudly(setting):
    with pytest.raises(ImproperlyConfigured) as refused:
        shared_addresses(setting)
    assert "SHARED_ADDRESSES" in str(refused.value)
