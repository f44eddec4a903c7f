#include "strategies/sweep.h"

#include <string_view>

#include "config/suggest.h"
#include "config/terminal_text.h"

namespace dicesim {
namespace {

// One swept value: the parameter (and element, for a per_ array) it sets.
struct Dimension {
  std::string key;
  int element = -1;  // -1: the parameter itself
  std::vector<json> values;

  std::string placeholder() const {
    if (element < 0) return key;
    std::string text = key;
    text += '[';
    text += std::to_string(element);
    text += ']';
    return text;
  }
  // "{total}": the placeholder as a name template writes it.
  std::string in_braces() const {
    std::string text(1, '{');
    text += placeholder();
    text += '}';
    return text;
  }
};

bool is_array_parameter(std::string_view key) { return key.rfind("per_", 0) == 0; }

bool is_range(const json& value) { return value.is_object(); }

// A range's keys: {"from": a, "to": b, "step": s}.
const std::vector<Parameter>& range_parameters() {
  constexpr std::int64_t kBound = 1'000'000'000'000'000;
  static const std::vector<Parameter> all = {
      integer_parameter("from", -kBound, kBound, "the first value").as_required(),
      integer_parameter("to", -kBound, kBound, "the last value, if a step lands on it").as_required(),
      integer_parameter("step", -kBound, kBound, "may be negative, not 0")
          .with_default(1)
          .with_schema({{"not", {{"const", 0}}}}),
  };
  return all;
}

// {"from": a, "to": b, "step": s}: a, a + s, ... up to b (b itself only if reached).
std::vector<json> range_values(const JsonNode& node) {
  const std::vector<Parameter>& keys = range_parameters();
  node.only_keys(keys_of(keys));
  const std::int64_t from = named(keys, "from").read_integer(node.at("from"));
  const std::int64_t to = named(keys, "to").read_integer(node.at("to"));
  const std::optional<JsonNode> step_node = node.find("step");
  const std::int64_t step =
      step_node ? named(keys, "step").read_integer(*step_node) : named(keys, "step").default_value->get<std::int64_t>();
  if (step == 0) step_node->fail("a step of 0 never reaches \"to\"");
  if ((to - from) / step < 0 || (to != from && (to > from) != (step > 0)))
    node.fail("an empty range: from " + std::to_string(from) + " to " + std::to_string(to) + " in steps of " +
              std::to_string(step));
  const std::int64_t count = (to - from) / step + 1;
  if (count > std::int64_t(kMaxStrategies))
    node.fail("a range of " + std::to_string(count) + " values, more than the " + std::to_string(kMaxStrategies) +
              " strategies a config may hold");
  std::vector<json> values;
  for (std::int64_t i = 0; i < count; ++i) values.push_back(from + i * step);
  return values;
}

std::vector<json> list_values(const JsonNode& node) {
  const std::vector<JsonNode> elements = node.elements();
  if (elements.empty()) node.fail("an empty list of values: a sweep needs at least one");
  std::vector<json> values;
  for (const JsonNode& element : elements) {
    if (!element.value().is_number())
      element.fail("expected a number (a list sweeps its values), got " + describe(element.value()));
    values.push_back(element.value());
  }
  return values;
}

// The values of one swept node, or nothing when the node is a plain value.
std::optional<std::vector<json>> swept_values(const JsonNode& node, bool list_sweeps) {
  if (is_range(node.value())) return range_values(node);
  if (list_sweeps && node.value().is_array()) return list_values(node);
  return std::nullopt;
}

std::vector<Dimension> dimensions_of(const JsonNode& entry) {
  std::vector<Dimension> dimensions;
  for (const auto& [key, value] : entry.value().items()) {
    if (key == "name" || key == "family" || key == "set") continue;
    const JsonNode node = *entry.find(key);
    if (is_array_parameter(key) && value.is_array()) {
      const std::vector<JsonNode> elements = node.elements();
      for (std::size_t i = 0; i < elements.size(); ++i)
        if (auto values = swept_values(elements[i], true)) dimensions.push_back({key, int(i), std::move(*values)});
    } else if (auto values = swept_values(node, true)) {
      dimensions.push_back({key, -1, std::move(*values)});
    }
  }
  return dimensions;
}

std::string value_text(const json& value) { return value.dump(); }

// "bank{total}" with total = 300 -> "bank300"; fails for an unknown
// placeholder, and for {name}: the name is what the template makes.
std::string fill_template(const JsonNode& name_node, const std::vector<Dimension>& dimensions,
                          const std::vector<std::size_t>& choice, const json& spec) {
  const std::string text = name_node.string();
  check_name_length(name_node, text, "a name template");
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '{') {
      out += text[i];
      continue;
    }
    const std::size_t close = text.find('}', i);
    if (close == std::string::npos) name_node.fail("an unclosed \"{\" in the name template");
    const std::string placeholder = text.substr(i + 1, close - i - 1);
    std::vector<std::string> known;
    bool found = false;
    for (std::size_t d = 0; d < dimensions.size() && !found; ++d) {
      known.push_back(dimensions[d].placeholder());
      if (dimensions[d].placeholder() == placeholder) {
        out += value_text(dimensions[d].values[choice[d]]);
        found = true;
      }
    }
    if (!found && placeholder == "name") name_node.fail("{name} in a name template: the name is what it makes");
    if (!found && spec.contains(placeholder) && spec[placeholder].is_primitive()) {
      out += spec[placeholder].is_string() ? spec[placeholder].get<std::string>() : value_text(spec[placeholder]);
      found = true;
    }
    if (!found) {
      std::vector<std::string_view> names(known.begin(), known.end());
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      name_node.fail("unknown placeholder {" + excerpt(placeholder) + "} (the swept parameters: " + list + ")" +
                     did_you_mean(placeholder, names));
    }
    i = close;
  }
  check_name_length(name_node, out, "a name");
  return out;
}

// family(total=300,per_roll=[1,2])
std::string default_name(const json& spec, const std::vector<Dimension>& dimensions) {
  std::string name = spec.value("family", std::string("strategy")) + "(";
  std::vector<std::string> keys;
  for (const Dimension& d : dimensions)
    if (keys.empty() || keys.back() != d.key) keys.push_back(d.key);
  for (std::size_t k = 0; k < keys.size(); ++k) name += (k ? "," : "") + keys[k] + "=" + spec[keys[k]].dump();
  return name + ")";
}

}  // namespace

void check_name_length(const JsonNode& name_node, const std::string& name, const char* what) {
  if (name.size() > kMaxNameLength)
    name_node.fail(std::string(what) + " of " + std::to_string(name.size()) + " characters, more than the " +
                   std::to_string(kMaxNameLength) + " a name may have");
}

std::vector<json> expand_strategy_entry(const JsonNode& entry, std::size_t most, std::size_t most_bytes) {
  if (!entry.value().is_object()) entry.fail("expected an object, got " + describe(entry.value()));
  const std::vector<Dimension> dimensions = dimensions_of(entry);
  if (dimensions.empty()) return {entry.value()};

  std::size_t combinations = 1;
  for (const Dimension& d : dimensions) {
    combinations *= d.values.size();
    if (combinations > most)
      entry.fail("the sweep makes more than " + std::to_string(most) + " strategies (a config holds at most " +
                 std::to_string(kMaxStrategies) + ")");
  }
  const std::size_t entry_bytes = entry.value().dump().size();
  if (entry_bytes * combinations > most_bytes)
    entry.fail("the sweep copies this " + std::to_string(entry_bytes) + "-byte entry " + std::to_string(combinations) +
               " times, more than the " + std::to_string(kMaxExpandedBytes >> 20) +
               " MiB the strategies of a config may take");
  const std::optional<JsonNode> name_node = entry.find("name");
  if (name_node && combinations > 1) {
    fill_template(*name_node, dimensions, std::vector<std::size_t>(dimensions.size(), 0), entry.value());
    const std::string text = name_node->string();
    for (const Dimension& d : dimensions)
      if (d.values.size() > 1 && text.find(d.in_braces()) == std::string::npos)
        name_node->fail("a sweep's name needs " + d.in_braces() + " (each swept parameter), or no name at all");
  }

  std::vector<json> specs;
  std::vector<std::size_t> choice(dimensions.size(), 0);
  for (std::size_t n = 0; n < combinations; ++n) {
    json spec = entry.value();
    for (std::size_t d = 0; d < dimensions.size(); ++d) {
      const Dimension& dim = dimensions[d];
      (dim.element < 0 ? spec[dim.key] : spec[dim.key][std::size_t(dim.element)]) = dim.values[choice[d]];
    }
    spec["name"] = name_node ? fill_template(*name_node, dimensions, choice, spec) : default_name(spec, dimensions);
    if (!name_node) check_name_length(entry, spec["name"].get<std::string>(), "a sweep's default name");
    specs.push_back(std::move(spec));
    for (std::size_t d = dimensions.size(); d-- > 0;) {  // the last dimension fastest
      if (++choice[d] < dimensions[d].values.size()) break;
      choice[d] = 0;
    }
  }
  return specs;
}

const std::vector<Parameter>& strategy_entry_parameters() {
  static const std::vector<Parameter> all = {
      shaped_parameter("name", {{"$ref", "#/$defs/strategy_name"}}, ""),
      string_parameter("set",
                       "the name contests use for this entry's strategies (default: a sweep's name template, or its "
                       "family without a name)")
          .with_schema({{"minLength", 1}}),
  };
  return all;
}

ordered_json sweep_schema_definitions() {
  const ordered_json integer = {{"type", "integer"}};
  ordered_json range = object_schema(range_parameters());
  return {{"strategy_name",
           {{"type", "string"},
            {"minLength", 1},
            {"maxLength", kMaxNameLength},
            {"pattern", "^[^/]+$"},
            {"description",
             "unique; no \"/\" or control characters (it becomes an HDF5 group). In a sweep, a template such as "
             "\"bank{total}\" or \"dv{per_roll[0]}_{per_roll[1]}\"; a sweep without a name is named after its "
             "family and values"}}},
          {std::string(kSweepableIntegerRef.substr(kSweepableIntegerRef.rfind('/') + 1)),
           {{"description",
             "an integer, or a sweep: a list of integers or a range {\"from\", \"to\", \"step\"} (one strategy "
             "per value)"},
            {"anyOf", {integer, {{"type", "array"}, {"minItems", 1}, {"items", integer}}, range}}}}};
}

std::string strategy_set(const JsonNode& entry) {
  if (const std::optional<JsonNode> set = entry.find("set")) {
    const std::string name = set->string();
    if (name.empty() || has_control_character(name)) set->fail("a set's name must be non-empty text");
    return name;
  }
  if (dimensions_of(entry).empty()) return "";
  const std::optional<JsonNode> name = entry.find("name");
  if (name && name->value().is_string()) return name->string();
  const std::optional<JsonNode> family = entry.find("family");
  return family && family->value().is_string() ? family->string() : "";
}

}  // namespace dicesim
