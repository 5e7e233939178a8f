//===- LintReport.cpp - coalesce-lint's JSON report, as far as read -------===//

#include "LintReport.h"

#include <cstdlib>

namespace coalesce::verify {

namespace {

/// A recursive-descent reader over one document.
class JsonReader {
public:
  explicit JsonReader(const std::string &Text) : T(Text) {}

  bool document(JsonValue &Out, std::string &Error) {
    bool Ok = value(Out, 0);
    skipBlanks();
    if (Ok && P != T.size())
      Ok = fail("text after the document");
    if (!Ok)
      Error = "JSON: " + Why + " at byte " + std::to_string(P);
    return Ok;
  }

private:
  const std::string &T;
  size_t P = 0;
  std::string Why;

  bool fail(const std::string &W) {
    if (Why.empty())
      Why = W;
    return false;
  }

  void skipBlanks() {
    while (P < T.size() &&
           (T[P] == ' ' || T[P] == '\t' || T[P] == '\n' || T[P] == '\r'))
      ++P;
  }

  bool literal(const char *Word) {
    size_t N = std::char_traits<char>::length(Word);
    if (T.compare(P, N, Word) != 0)
      return fail("unexpected character");
    P += N;
    return true;
  }

  static void appendUtf8(std::string &S, unsigned long C) {
    if (C < 0x80) {
      S += static_cast<char>(C);
    } else if (C < 0x800) {
      S += static_cast<char>(0xC0 | (C >> 6));
      S += static_cast<char>(0x80 | (C & 0x3F));
    } else if (C < 0x10000) {
      S += static_cast<char>(0xE0 | (C >> 12));
      S += static_cast<char>(0x80 | ((C >> 6) & 0x3F));
      S += static_cast<char>(0x80 | (C & 0x3F));
    } else {
      S += static_cast<char>(0xF0 | (C >> 18));
      S += static_cast<char>(0x80 | ((C >> 12) & 0x3F));
      S += static_cast<char>(0x80 | ((C >> 6) & 0x3F));
      S += static_cast<char>(0x80 | (C & 0x3F));
    }
  }

  bool hex4(unsigned long &C) {
    if (P + 4 > T.size())
      return fail("short \\u escape");
    std::string H = T.substr(P, 4);
    char *End = nullptr;
    C = std::strtoul(H.c_str(), &End, 16);
    if (End != H.c_str() + 4)
      return fail("bad \\u escape");
    P += 4;
    return true;
  }

  bool string(std::string &S) {
    ++P; // The opening quote.
    while (P < T.size() && T[P] != '"') {
      char C = T[P++];
      if (C != '\\') {
        S += C;
        continue;
      }
      if (P >= T.size())
        break;
      char E = T[P++];
      switch (E) {
      case 'b': S += '\b'; break;
      case 'f': S += '\f'; break;
      case 'n': S += '\n'; break;
      case 'r': S += '\r'; break;
      case 't': S += '\t'; break;
      case 'u': {
        unsigned long Code = 0, Low = 0;
        if (!hex4(Code))
          return false;
        if (Code >= 0xD800 && Code < 0xDC00 && T.compare(P, 2, "\\u") == 0) {
          P += 2;
          if (!hex4(Low))
            return false;
          Code = 0x10000 + ((Code - 0xD800) << 10) + (Low - 0xDC00);
        }
        appendUtf8(S, Code);
        break;
      }
      default: S += E; break; // '"', '\\', '/'.
      }
    }
    if (P >= T.size())
      return fail("unterminated string");
    ++P;
    return true;
  }

  bool number(double &N) {
    const char *Start = T.c_str() + P;
    char *End = nullptr;
    N = std::strtod(Start, &End);
    if (End == Start)
      return fail("unexpected character");
    P += static_cast<size_t>(End - Start);
    return true;
  }

  bool members(JsonValue &Out, unsigned Depth, bool Object) {
    ++P; // '[' or '{'.
    skipBlanks();
    char Close = Object ? '}' : ']';
    if (P < T.size() && T[P] == Close) {
      ++P;
      return true;
    }
    while (true) {
      skipBlanks();
      if (Object) {
        if (P >= T.size() || T[P] != '"')
          return fail("expected a member name");
        Out.Keys.emplace_back();
        if (!string(Out.Keys.back()))
          return false;
        skipBlanks();
        if (P >= T.size() || T[P] != ':')
          return fail("expected ':'");
        ++P;
      }
      Out.Items.emplace_back();
      if (!value(Out.Items.back(), Depth + 1))
        return false;
      skipBlanks();
      if (P < T.size() && T[P] == ',') {
        ++P;
        continue;
      }
      if (P < T.size() && T[P] == Close) {
        ++P;
        return true;
      }
      return fail(Object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
  }

  bool value(JsonValue &Out, unsigned Depth) {
    if (Depth > 256)
      return fail("nesting too deep");
    skipBlanks();
    if (P >= T.size())
      return fail("unexpected end");
    switch (T[P]) {
    case '{':
      Out.K = JsonValue::Kind::Object;
      return members(Out, Depth, true);
    case '[':
      Out.K = JsonValue::Kind::Array;
      return members(Out, Depth, false);
    case '"':
      Out.K = JsonValue::Kind::String;
      return string(Out.String);
    case 't':
      Out.K = JsonValue::Kind::Bool;
      Out.Bool = true;
      return literal("true");
    case 'f':
      Out.K = JsonValue::Kind::Bool;
      return literal("false");
    case 'n':
      return literal("null");
    default:
      Out.K = JsonValue::Kind::Number;
      return number(Out.Number);
    }
  }
};

const std::vector<JsonValue> &arrayOf(const JsonValue &V,
                                      const std::string &Key) {
  static const std::vector<JsonValue> None;
  const JsonValue *A = V.get(Key);
  return A && A->K == JsonValue::Kind::Array ? A->Items : None;
}

unsigned unsignedOf(const JsonValue &V, const std::string &Key) {
  double N = V.num(Key);
  return N > 0 ? static_cast<unsigned>(N) : 0;
}

} // namespace

const JsonValue *JsonValue::get(const std::string &Key) const {
  if (K != Kind::Object)
    return nullptr;
  for (size_t I = 0; I != Keys.size(); ++I)
    if (Keys[I] == Key)
      return &Items[I];
  return nullptr;
}

std::string JsonValue::str(const std::string &Key) const {
  const JsonValue *V = get(Key);
  return V && V->K == Kind::String ? V->String : std::string();
}

double JsonValue::num(const std::string &Key, double Default) const {
  const JsonValue *V = get(Key);
  return V && V->K == Kind::Number ? V->Number : Default;
}

bool parseJson(const std::string &Text, JsonValue &Out, std::string &Error) {
  Out = JsonValue();
  return JsonReader(Text).document(Out, Error);
}

bool parseLintReport(const std::string &Text, LintReport &Out,
                     std::string &Error) {
  JsonValue Root;
  if (!parseJson(Text, Root, Error))
    return false;
  if (Root.str("tool") != "coalesce-lint" || Root.num("schema") != 1) {
    Error = "not a coalesce-lint JSON report of schema 1 (write it with "
            "coalesce-lint --format=json -o FILE)";
    return false;
  }
  for (const JsonValue &F : arrayOf(Root, "files")) {
    LintFile LF;
    LF.Path = F.str("file");
    const JsonValue *A = F.get("analyzed");
    LF.Analyzed = !A || A->K != JsonValue::Kind::Bool || A->Bool;
    LF.FatalError = F.str("fatal_error");
    for (const JsonValue &E : arrayOf(F, "errors")) {
      LintError LE;
      LE.File = E.str("file");
      LE.Line = unsignedOf(E, "line");
      LE.Message = E.str("message");
      const JsonValue *K = E.get("in_kernel");
      LE.InKernel = K && K->K == JsonValue::Kind::Bool && K->Bool;
      LF.Errors.push_back(std::move(LE));
    }
    for (const JsonValue &U : arrayOf(F, "uninstantiated_kernels"))
      LF.Uninstantiated.push_back(U.str("name"));
    Out.Files.push_back(std::move(LF));
  }
  for (const JsonValue &K : arrayOf(Root, "kernels")) {
    LintKernel LK;
    LK.Name = K.str("name");
    LK.File = K.str("file");
    LK.Line = unsignedOf(K, "line");
    LK.Instantiation = K.str("instantiation");
    LK.Accesses = static_cast<unsigned>(arrayOf(K, "accesses").size());
    Out.Kernels.push_back(std::move(LK));
  }
  return true;
}

} // namespace coalesce::verify
