"""Analysis over a built graph: item timelines and who bridges a team."""
