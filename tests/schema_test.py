"""configs/schema.json against the shipped configs and tests/bad_configs.

Run with Debian's Python: /usr/bin/python3 tests/schema_test.py
"""
import functools
import json
import pathlib
import unittest

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "bad_configs"

# The bad configs whose fault is structural (a type, an unknown or missing
# key, a value outside a fixed range or list): the schema must refuse each.
# The others relate several fields (a value against the rules, a contest
# against the game's tables) or are not JSON at all, and only the C++ checks
# (dicesim validate) catch them.
STRUCTURAL = """
battle_fixed_without_dice battle_goal_zero battle_max_dice_21 battle_max_dice_zero
battle_optimal_with_parameter battle_rules_typo battle_unknown_family battle_unknown_turns
family_missing game_number games_as_string games_fraction games_huge games_negative_exponent
games_point_zero_beyond name_number name_template_too_long name_too_long not_an_object
null_seed nway_not_groups per_roll_negative per_roll_nested pig_goal_zero pig_optimal_win_param
pig_seats_five pig_three_dice pig_turns_zero pig_unknown_rule precision_not_object precision_rate_too_wide
precision_unknown_target precision_zero rules_not_object strategies_object
tenk_bank_at_not_a_multiple tenk_bank_at_per_dice_not_a_multiple tenk_unknown_family too_many_seats
""".split()


@functools.cache
def validator():
    schema = json.loads((ROOT / "configs" / "schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def errors(document):
    return list(validator().iter_errors(document))


class Schema(unittest.TestCase):
    def test_every_shipped_config_validates(self):
        configs = [p for p in sorted((ROOT / "configs").glob("*.json")) if p.name != "schema.json"]
        self.assertGreater(len(configs), 5)
        for path in configs:
            with self.subTest(config=path.name):
                self.assertEqual([e.message for e in errors(json.loads(path.read_text()))], [])

    def test_every_structural_bad_config_fails(self):
        for name in STRUCTURAL:
            with self.subTest(config=name):
                document = json.loads((BAD / f"{name}.json").read_text())  # 1e400 reads as inf
                self.assertNotEqual(errors(document), [], (BAD / f"{name}.expected").read_text())

    def test_the_structural_list_names_existing_bad_configs(self):
        for name in STRUCTURAL:
            with self.subTest(config=name):
                self.assertTrue((BAD / f"{name}.json").is_file())
                self.assertTrue((BAD / f"{name}.expected").is_file())

    def test_a_relational_fault_is_left_to_the_program(self):
        # hold_at 51 with goal 50: only the C++ checks know the goal bounds it.
        document = json.loads((BAD / "pig_hold_beyond_goal.json").read_text())
        self.assertEqual(errors(document), [])

    def test_a_family_of_another_game_and_its_parameters_are_refused(self):
        base = {"game": "pig", "games": 10, "strategies": [{"name": "a", "family": "hold_at", "at": 20}]}
        self.assertEqual(errors(base), [])
        self.assertNotEqual(errors({**base, "strategies": [{"name": "a", "family": "bank_at", "total": 300}]}), [])
        self.assertNotEqual(errors({**base, "strategies": [{"name": "a", "family": "hold_at", "at": 20, "x": 1}]}), [])
        self.assertNotEqual(errors({**base, "precision": {"turn_score": 0.1}}), [])  # a 10,000 measure
        self.assertEqual(errors({**base, "precision": {"rate": 0.01, "turns": 0.1}, "$schema": "./schema.json"}), [])

    def test_contests_name_sets_and_rectangles(self):
        base = {"game": "pig", "games": 10,
                "strategies": [{"name": "h{at}", "family": "hold_at", "at": [10, 20], "set": "holds"},
                               {"name": "w", "family": "optimal_win"}]}
        for contests in ({"against": {"players": ["holds"], "opponents": ["w"]}},
                         {"against": [{"players": ["holds"], "opponents": ["w"], "sequential": True}]},
                         {"sequential": ["holds", "w"]}, {"sequential_tables": [["holds", "w"]]}):
            with self.subTest(contests=contests):
                self.assertEqual(errors({**base, "contests": contests}), [])
        self.assertNotEqual(errors({**base, "contests": {"against": {"players": ["holds"]}}}), [])
        self.assertNotEqual(errors({**base, "contests": {"against": {"players": ["holds"], "opponents": [], }}}), [])
        self.assertNotEqual(errors({**base, "contests": {"sequential": "holds"}}), [])

    def test_sweeps_are_lists_and_ranges(self):
        base = {"game": "sixers", "games": 10}
        sweep = {"name": "dv{per_roll[0]}_{per_roll[1]}", "family": "dice_value_threshold",
                 "per_roll": [[1, 2, 3], {"from": 1, "to": 6, "step": 1}]}
        self.assertEqual(errors({**base, "strategies": [sweep]}), [])
        self.assertEqual(errors({**base, "strategies": [{"family": "dice_number_kept", "per_roll": [[1, 2], 2]}]}), [])
        self.assertNotEqual(errors({**base, "strategies": [{**sweep, "per_roll": [{"from": 1, "upto": 6}, 2]}]}), [])
        self.assertNotEqual(errors({**base, "strategies": [{**sweep, "per_roll": [{"from": 1, "to": 6, "step": 0}, 2]}]}), [])
        self.assertNotEqual(errors({**base, "strategies": [{**sweep, "per_roll": [[], 2]}]}), [])


if __name__ == "__main__":
    unittest.main()
