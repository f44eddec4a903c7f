// The config format as data: each key a config may hold, with its kind, its
// static range, its default and a description. The readers take their keys
// and ranges from here, `dicesim list` and `dicesim schema`
// (configs/schema.json) print them, so the three cannot drift apart. What
// relates several keys (Pig's hold_at against the goal) stays in the
// readers' code: a Parameter states the static range only.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/json_input.h"

namespace dicesim {

// The schema is printed in the order it is built: keys as declared.
using ordered_json = nlohmann::ordered_json;

// Where a sweepable integer's schema lives in configs/schema.json: an
// integer, a list of them or a range (strategies/sweep.h defines it).
constexpr std::string_view kSweepableIntegerRef = "#/$defs/integer_parameter";

enum class ParameterKind {
  integer,  // min..max (null: no bound on that side), a multiple of multiple_of if set
  boolean,
  string,
  one_of,         // one of `choices`
  integer_array,  // a per_ array of integers, each min..max (its length depends on the rules)
  integer_table,  // an object of integers min..max, its keys among `choices`
  object,         // an object holding only the `members`' keys
  shaped,         // anything else: `schema_extra` is its whole JSON Schema
};

struct Parameter {
  std::string name;
  ParameterKind kind = ParameterKind::integer;
  std::string description;
  json min, max;
  std::int64_t multiple_of = 0;  // 0: any integer
  std::vector<std::string> choices;
  std::vector<Parameter> members;
  std::optional<json> default_value;  // none: required, or optional with a meaning of its own
  bool required = false;
  bool sweepable = false;  // a strategy's integer: a list or a range of values stands for one strategy each
  std::string bounds;      // `dicesim list`'s text for the values when they depend on other keys ("1..max_dice")
  ordered_json schema_extra = ordered_json::object();  // added to the schema: what the kinds do not say

  Parameter& with_default(json value);
  Parameter& as_required();
  Parameter& in_multiples_of(std::int64_t step);
  Parameter& swept();
  Parameter& bounded_by(std::string text);
  Parameter& with_schema(ordered_json extra);

  // The value at `node` within the static range, failing as JsonNode does
  // ("expected an integer from 1 to 2, got 3").
  std::int64_t read_integer(const JsonNode& node) const;
  std::uint64_t read_unsigned(const JsonNode& node) const;
  // One of `choices`; else "expected "a" or "b", got "c"".
  std::string read_choice(const JsonNode& node) const;

  // `dicesim list`: the values allowed ("1..12", "true or false", ...).
  std::string range_text() const;
  // The JSON Schema of the value, with its description and default.
  ordered_json schema() const;
};

Parameter integer_parameter(std::string name, json min, json max, std::string description);
Parameter boolean_parameter(std::string name, std::string description);
Parameter string_parameter(std::string name, std::string description);
Parameter choice_parameter(std::string name, std::vector<std::string> choices, std::string description);
Parameter integer_array_parameter(std::string name, json min, json max, std::string description);
Parameter integer_table_parameter(std::string name, std::vector<std::string> keys, json min, json max,
                                  std::string description);
Parameter object_parameter(std::string name, std::vector<Parameter> members, std::string description);
Parameter shaped_parameter(std::string name, ordered_json schema, std::string description);

// The parameter of that name; std::logic_error if none is declared.
const Parameter& named(const std::vector<Parameter>& parameters, std::string_view name);
// The keys of `first` then of `parameters`, for JsonNode::only_keys.
std::vector<std::string_view> keys_of(const std::vector<Parameter>& parameters,
                                      std::initializer_list<std::string_view> first = {});
// The value of key `name` of `object`, if given, within its declared range.
std::optional<std::int64_t> read_integer_key(const JsonNode& object, const std::vector<Parameter>& parameters,
                                             std::string_view name);

// {"type": "object", "properties": ..., "required": ..., "additionalProperties": false}.
ordered_json object_schema(const std::vector<Parameter>& parameters);
// A parameter's default as `dicesim list` and the READMEs write it.
std::string default_text(const Parameter& parameter);
// `dicesim list`'s lines for rules: name, values, default, description.
void describe_parameters(std::ostream& out, const std::vector<Parameter>& parameters);

}  // namespace dicesim
