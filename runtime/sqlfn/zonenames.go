package sqlfn

import (
	"sync"
	"time"
)

// zoneName renders the zone of the instant sec in loc as the pattern
// letter z does (Java's ZoneTextPrinterParser, English): the zone's name
// for standard or for daylight saving time, chosen by whether daylight
// saving time is in force at sec. As in Java the name depends only on
// the zone and that choice, not on the period: America/Los_Angeles in
// 1582 (local mean time in the time zone database) is still PST. Short
// names are the database's abbreviations of the zone's present rules;
// long names (zzzz) are Java's for the abbreviations in longZoneNames,
// and the short name for the others.
func zoneName(loc *time.Location, sec int64, long bool) string {
	t := time.Unix(sec, 0).In(loc)
	dst := t.IsDST()
	names := presentZoneNames(loc)
	name := names[0]
	if dst {
		name = names[1]
	}
	if name == "" {
		name, _ = t.Zone()
	}
	if !long {
		return name
	}
	if loc == time.UTC || name == "UTC" {
		return "Coordinated Universal Time"
	}
	if n, ok := longZoneNamesByZone[loc.String()]; ok {
		return n[b2i(dst)]
	}
	if n, ok := longZoneNames[name]; ok {
		return n
	}
	return name
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

var zoneNameCache sync.Map // *time.Location → [2]string

// presentZoneNames returns the abbreviations of loc's standard and
// daylight saving time under its present rules (those of 2024, so that
// output does not depend on when it runs); "" where loc has none.
func presentZoneNames(loc *time.Location) [2]string {
	if v, ok := zoneNameCache.Load(loc); ok {
		return v.([2]string)
	}
	var names [2]string
	for _, m := range []time.Month{time.January, time.July} {
		t := time.Date(2024, m, 1, 12, 0, 0, 0, loc)
		name, _ := t.Zone()
		names[b2i(t.IsDST())] = name
	}
	zoneNameCache.Store(loc, names)
	return names
}

// longZoneNames are Java's English long names (CLDR) of common zone
// abbreviations.
var longZoneNames = map[string]string{
	"PST": "Pacific Standard Time", "PDT": "Pacific Daylight Time",
	"MST": "Mountain Standard Time", "MDT": "Mountain Daylight Time",
	"CST": "Central Standard Time", "CDT": "Central Daylight Time",
	"EST": "Eastern Standard Time", "EDT": "Eastern Daylight Time",
	"AST": "Atlantic Standard Time", "ADT": "Atlantic Daylight Time",
	"NST": "Newfoundland Standard Time", "NDT": "Newfoundland Daylight Time",
	"AKST": "Alaska Standard Time", "AKDT": "Alaska Daylight Time",
	"HST": "Hawaii-Aleutian Standard Time", "HDT": "Hawaii-Aleutian Daylight Time",
	"GMT": "Greenwich Mean Time", "BST": "British Summer Time",
	"WET": "Western European Standard Time", "WEST": "Western European Summer Time",
	"CET": "Central European Standard Time", "CEST": "Central European Summer Time",
	"EET": "Eastern European Standard Time", "EEST": "Eastern European Summer Time",
	"MSK": "Moscow Standard Time",
	"JST": "Japan Standard Time", "KST": "Korean Standard Time", "HKT": "Hong Kong Standard Time",
	"AEST": "Australian Eastern Standard Time", "AEDT": "Australian Eastern Daylight Time",
	"ACST": "Australian Central Standard Time", "ACDT": "Australian Central Daylight Time",
	"AWST": "Australian Western Standard Time",
	"NZST": "New Zealand Standard Time", "NZDT": "New Zealand Daylight Time",
	"SAST": "South Africa Standard Time", "WIB": "Western Indonesia Time",
	"PKT": "Pakistan Standard Time",
}

// longZoneNamesByZone are the long names of zones whose abbreviation is
// shared with another zone (CST, IST), standard and daylight.
var longZoneNamesByZone = map[string][2]string{
	"Asia/Shanghai":  {"China Standard Time", "China Daylight Time"},
	"Asia/Taipei":    {"Taipei Standard Time", "Taipei Daylight Time"},
	"America/Havana": {"Cuba Standard Time", "Cuba Daylight Time"},
	"Asia/Kolkata":   {"India Standard Time", "India Standard Time"},
	"Asia/Calcutta":  {"India Standard Time", "India Standard Time"},
}
