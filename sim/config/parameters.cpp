#include "config/parameters.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <stdexcept>

#include "config/terminal_text.h"

namespace dicesim {
namespace {

ordered_json ordered(const json& value) { return ordered_json::parse(value.dump()); }

Parameter make(std::string name, ParameterKind kind, std::string description) {
  Parameter p;
  p.name = std::move(name);
  p.kind = kind;
  p.description = std::move(description);
  return p;
}

Parameter ranged(std::string name, ParameterKind kind, json min, json max, std::string description) {
  Parameter p = make(std::move(name), kind, std::move(description));
  p.min = std::move(min);
  p.max = std::move(max);
  return p;
}

// "1..12", "0 and up", "..., a multiple of 50".
std::string integer_range_text(const Parameter& p) {
  std::string text = p.max.is_null() ? p.min.dump() + " and up" : p.min.dump() + ".." + p.max.dump();
  if (p.multiple_of) text += ", a multiple of " + std::to_string(p.multiple_of);
  return text;
}

// One integer: its type (or, swept, the sweep's definition) and range.
ordered_json integer_schema(const Parameter& p) {
  ordered_json schema = ordered_json::object();
  if (p.sweepable)
    schema["$ref"] = kSweepableIntegerRef;
  else
    schema["type"] = "integer";
  if (!p.min.is_null()) schema["minimum"] = ordered(p.min);
  if (!p.max.is_null()) schema["maximum"] = ordered(p.max);
  if (p.multiple_of) schema["multipleOf"] = p.multiple_of;
  return schema;
}

std::string quoted_choices(const std::vector<std::string>& choices) {
  std::string text;
  for (std::size_t i = 0; i < choices.size(); ++i)
    text += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + json(choices[i]).dump();
  return text;
}

}  // namespace

Parameter& Parameter::with_default(json value) {
  default_value = std::move(value);
  return *this;
}
Parameter& Parameter::as_required() {
  required = true;
  return *this;
}
Parameter& Parameter::in_multiples_of(std::int64_t step) {
  multiple_of = step;
  return *this;
}
Parameter& Parameter::swept() {
  sweepable = true;
  return *this;
}
Parameter& Parameter::bounded_by(std::string text) {
  bounds = std::move(text);
  return *this;
}
Parameter& Parameter::with_schema(ordered_json extra) {
  schema_extra = std::move(extra);
  return *this;
}

std::int64_t Parameter::read_integer(const JsonNode& node) const {
  return node.integer(min.is_null() ? INT64_MIN : min.get<std::int64_t>(),
                      max.is_null() ? INT64_MAX : max.get<std::int64_t>());
}

std::uint64_t Parameter::read_unsigned(const JsonNode& node) const {
  return node.unsigned_integer(min.get<std::uint64_t>(), max.is_null() ? UINT64_MAX : max.get<std::uint64_t>());
}

std::string Parameter::read_choice(const JsonNode& node) const {
  const std::string value = node.string();
  for (const std::string& choice : choices)
    if (choice == value) return value;
  node.fail("expected " + quoted_choices(choices) + ", got " + quoted_text(value));
}

std::string Parameter::range_text() const {
  if (!bounds.empty()) return bounds;
  switch (kind) {
    case ParameterKind::integer:
      return integer_range_text(*this);
    case ParameterKind::boolean:
      return "true or false";
    case ParameterKind::string:
      return "text";
    case ParameterKind::one_of:
      return quoted_choices(choices);
    case ParameterKind::integer_array:
      return std::string("[...], each ").append(integer_range_text(*this));
    case ParameterKind::integer_table:
      return std::string("{").append(quoted_choices(choices)).append(": ").append(integer_range_text(*this)) + "}";
    case ParameterKind::object:
    case ParameterKind::shaped:
      break;
  }
  return "see configs/README.md";
}

ordered_json Parameter::schema() const {
  ordered_json schema = ordered_json::object();
  switch (kind) {
    case ParameterKind::integer:
      schema = integer_schema(*this);
      break;
    case ParameterKind::boolean:
      schema["type"] = "boolean";
      break;
    case ParameterKind::string:
      schema["type"] = "string";
      break;
    case ParameterKind::one_of:
      schema["enum"] = choices;
      break;
    case ParameterKind::integer_array:
      schema["type"] = "array";
      schema["items"] = integer_schema(*this);
      break;
    case ParameterKind::integer_table:
      schema["type"] = "object";
      schema["additionalProperties"] = false;
      schema["properties"] = ordered_json::object();
      for (const std::string& key : choices) schema["properties"][key] = integer_schema(*this);
      break;
    case ParameterKind::object:
      schema = object_schema(members);
      break;
    case ParameterKind::shaped:
      break;
  }
  schema.update(schema_extra);
  if (!description.empty()) schema["description"] = description;
  if (default_value) schema["default"] = ordered(*default_value);
  return schema;
}

Parameter integer_parameter(std::string name, json min, json max, std::string description) {
  return ranged(std::move(name), ParameterKind::integer, std::move(min), std::move(max), std::move(description));
}
Parameter boolean_parameter(std::string name, std::string description) {
  return make(std::move(name), ParameterKind::boolean, std::move(description));
}
Parameter string_parameter(std::string name, std::string description) {
  return make(std::move(name), ParameterKind::string, std::move(description));
}
Parameter choice_parameter(std::string name, std::vector<std::string> choices, std::string description) {
  Parameter p = make(std::move(name), ParameterKind::one_of, std::move(description));
  p.choices = std::move(choices);
  return p;
}
Parameter integer_array_parameter(std::string name, json min, json max, std::string description) {
  return ranged(std::move(name), ParameterKind::integer_array, std::move(min), std::move(max), std::move(description));
}
Parameter integer_table_parameter(std::string name, std::vector<std::string> keys, json min, json max,
                                  std::string description) {
  Parameter p =
      ranged(std::move(name), ParameterKind::integer_table, std::move(min), std::move(max), std::move(description));
  p.choices = std::move(keys);
  return p;
}
Parameter object_parameter(std::string name, std::vector<Parameter> members, std::string description) {
  Parameter p = make(std::move(name), ParameterKind::object, std::move(description));
  p.members = std::move(members);
  return p;
}
Parameter shaped_parameter(std::string name, ordered_json schema, std::string description) {
  return make(std::move(name), ParameterKind::shaped, std::move(description)).with_schema(std::move(schema));
}

const Parameter& named(const std::vector<Parameter>& parameters, std::string_view name) {
  for (const Parameter& p : parameters)
    if (p.name == name) return p;
  throw std::logic_error("no parameter \"" + std::string(name) + "\" is declared");
}

std::vector<std::string_view> keys_of(const std::vector<Parameter>& parameters,
                                      std::initializer_list<std::string_view> first) {
  std::vector<std::string_view> keys(first);
  for (const Parameter& p : parameters) keys.push_back(p.name);
  return keys;
}

std::optional<std::int64_t> read_integer_key(const JsonNode& object, const std::vector<Parameter>& parameters,
                                             std::string_view name) {
  const Parameter& parameter = named(parameters, name);
  const std::optional<JsonNode> node = object.find(parameter.name);
  if (!node) return std::nullopt;
  return parameter.read_integer(*node);
}

ordered_json object_schema(const std::vector<Parameter>& parameters) {
  ordered_json schema = {{"type", "object"}, {"additionalProperties", false}};
  ordered_json properties = ordered_json::object();
  ordered_json required = ordered_json::array();
  for (const Parameter& p : parameters) {
    properties[p.name] = p.schema();
    if (p.required) required.push_back(p.name);
  }
  schema["properties"] = properties;
  if (!required.empty()) schema["required"] = required;
  return schema;
}

std::string default_text(const Parameter& parameter) {
  return parameter.default_value ? parameter.default_value->dump() : "";
}

void describe_parameters(std::ostream& out, const std::vector<Parameter>& parameters) {
  // The names in one column, as wide as the longest needs.
  std::size_t width = 10;
  for (const Parameter& p : parameters) width = std::max(width, p.name.size());
  for (const Parameter& p : parameters) {
    out << "    " << std::left << std::setw(static_cast<int>(width + 1)) << p.name << std::right << p.range_text();
    if (p.default_value) out << ", default " << default_text(p);
    if (!p.description.empty()) out << " (" << p.description << ")";
    out << "\n";
  }
}

}  // namespace dicesim
