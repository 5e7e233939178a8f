//===- KernelName.cpp - Kernel names as ncu and clang spell them ----------===//

#include "KernelName.h"

#include <cctype>
#include <regex>
#include <set>

namespace coalesce::verify {

namespace {

/// What both spellings of an anonymous namespace become.
const char *const AnonymousNamespace = "__anonymous_namespace__";

bool isWordChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
}

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t\r\n");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t\r\n");
  return S.substr(B, E - B + 1);
}

void replaceAll(std::string &S, const std::string &From,
                const std::string &To) {
  for (size_t P = S.find(From); P != std::string::npos;
       P = S.find(From, P + To.size()))
    S.replace(P, From.size(), To);
}

/// ncu's "<unnamed>" and clang's "(anonymous namespace)" as one word, so
/// that neither looks like a bracket.
std::string unifyAnonymous(std::string S) {
  replaceAll(S, "(anonymous namespace)", AnonymousNamespace);
  replaceAll(S, "<unnamed>", AnonymousNamespace);
  return S;
}

/// Blanks only where they separate two words ("unsigned int"), none else
/// ("const float *" -> "const float*", "A<B<int> >" -> "A<B<int>>").
std::string collapseBlanks(const std::string &S) {
  std::string Out;
  bool PendingBlank = false;
  for (char C : S) {
    if (std::isspace(static_cast<unsigned char>(C))) {
      PendingBlank = true;
      continue;
    }
    if (PendingBlank && !Out.empty() && isWordChar(Out.back()) && isWordChar(C))
      Out += ' ';
    PendingBlank = false;
    Out += C;
  }
  return Out;
}

/// Splits \p S at the commas outside <>, () and [].
std::vector<std::string> splitTopLevel(const std::string &S) {
  std::vector<std::string> Parts;
  std::string Part;
  int Depth = 0;
  for (char C : S) {
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']')
      --Depth;
    if (C == ',' && Depth == 0) {
      Parts.push_back(trim(Part));
      Part.clear();
      continue;
    }
    Part += C;
  }
  if (!trim(Part).empty() || !Parts.empty())
    Parts.push_back(trim(Part));
  return Parts;
}

/// The index of the '>' closing the '<' at \p Open, or npos.
size_t matchingAngle(const std::string &S, size_t Open) {
  int Angle = 0, Paren = 0;
  for (size_t I = Open; I < S.size(); ++I) {
    char C = S[I];
    if (C == '(')
      ++Paren;
    else if (C == ')')
      --Paren;
    else if (Paren == 0 && C == '<')
      ++Angle;
    else if (Paren == 0 && C == '>' && --Angle == 0)
      return I;
  }
  return std::string::npos;
}

bool isBuiltinIntegerType(const std::string &T) {
  static const std::set<std::string> Types = {"char",
                                              "signed char",
                                              "unsigned char",
                                              "short",
                                              "short int",
                                              "unsigned short",
                                              "unsigned short int",
                                              "int",
                                              "signed",
                                              "signed int",
                                              "unsigned",
                                              "unsigned int",
                                              "long",
                                              "long int",
                                              "unsigned long",
                                              "unsigned long int",
                                              "long long",
                                              "long long int",
                                              "unsigned long long",
                                              "unsigned long long int",
                                              "__int128",
                                              "unsigned __int128",
                                              "wchar_t",
                                              "char8_t",
                                              "char16_t",
                                              "char32_t",
                                              "size_t",
                                              "std::size_t"};
  return Types.count(T) != 0;
}

/// "-0012" -> "-12"; "0" stays.
std::string canonicalInteger(const std::string &Digits) {
  bool Negative = !Digits.empty() && Digits[0] == '-';
  size_t First = Digits.find_first_not_of("+-0");
  std::string Magnitude =
      First == std::string::npos ? "0" : Digits.substr(First);
  return (Negative && Magnitude != "0" ? "-" : "") + Magnitude;
}

/// A character literal's code ("'x'" -> "120", "'\\n'" -> "10"); "" when
/// \p S is no simple character literal.
std::string characterCode(const std::string &S) {
  if (S.size() == 3 && S[0] == '\'' && S[2] == '\'')
    return std::to_string(static_cast<unsigned char>(S[1]));
  if (S.size() == 4 && S[0] == '\'' && S[1] == '\\' && S[3] == '\'') {
    switch (S[2]) {
    case 'n':
      return "10";
    case 't':
      return "9";
    case 'r':
      return "13";
    case '0':
      return "0";
    case '\\':
      return "92";
    case '\'':
      return "39";
    }
  }
  return "";
}

std::string canonicalArgument(const std::string &Arg);

/// Canonicalizes every template argument list inside \p S.
std::string canonicalNested(const std::string &S) {
  size_t Open = std::string::npos;
  int Paren = 0;
  for (size_t I = 0; I != S.size(); ++I) {
    if (S[I] == '(')
      ++Paren;
    else if (S[I] == ')')
      --Paren;
    else if (S[I] == '<' && Paren == 0) {
      Open = I;
      break;
    }
  }
  if (Open == std::string::npos)
    return S;
  size_t Close = matchingAngle(S, Open);
  if (Close == std::string::npos)
    return S;
  std::string Out = S.substr(0, Open) + "<";
  std::vector<std::string> Args =
      splitTopLevel(S.substr(Open + 1, Close - Open - 1));
  for (size_t I = 0; I != Args.size(); ++I)
    Out += (I ? "," : "") + canonicalArgument(Args[I]);
  return Out + ">" + canonicalNested(S.substr(Close + 1));
}

std::string canonicalArgument(const std::string &Arg) {
  std::string S = collapseBlanks(unifyAnonymous(trim(Arg)));
  static const std::regex Cast(R"(^\(([^()]+)\)\(?([-+]?[0-9]+)[uUlL]*\)?$)");
  static const std::regex Integer(R"(^([-+]?[0-9]+)[uUlL]*$)");
  std::smatch M;
  if (std::regex_match(S, M, Cast)) {
    std::string Type = M[1].str(), Value = canonicalInteger(M[2].str());
    if (Type == "bool")
      return Value == "0" ? "false" : "true";
    if (isBuiltinIntegerType(Type))
      return Value;
    return "(" + Type + ")" + Value; // An enumeration: kept with its type.
  }
  if (std::regex_match(S, M, Integer))
    return canonicalInteger(M[1].str());
  if (std::string Code = characterCode(S); !Code.empty())
    return Code;
  return canonicalNested(S);
}

/// "(Mode)1": an enumeration value as ncu prints it.
bool isEnumerationCast(const std::string &S) {
  return !S.empty() && S[0] == '(' && S.find(')') != std::string::npos;
}

/// "Mode::B", "B": an enumerator as clang prints it.
bool isQualifiedIdentifier(const std::string &S) {
  static const std::regex Id(
      R"(^(::)?[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$)");
  return std::regex_match(S, Id);
}

/// \p S without namespace and class qualifiers ("ns::S<ns::T>*" -> "S<T>*").
std::string withoutQualifiers(const std::string &S) {
  static const std::regex Qualifier(R"((::)?([A-Za-z_][A-Za-z0-9_]*::)+)");
  return std::regex_replace(S, Qualifier, "");
}

bool argumentsComparable(const std::string &P, const std::string &A) {
  if (isEnumerationCast(P) && isQualifiedIdentifier(A))
    return true;
  if (isEnumerationCast(A) && isQualifiedIdentifier(P))
    return true;
  if (!P.empty() && !A.empty() && P[0] == '&' && A[0] == '&')
    return true; // Function pointers, qualified differently.
  return withoutQualifiers(P) == withoutQualifiers(A);
}

} // namespace

std::string canonicalTemplateArgument(const std::string &Arg) {
  return canonicalArgument(Arg);
}

KernelSignature parseKernelSignature(const std::string &Spelling) {
  KernelSignature Sig;
  std::string S = trim(unifyAnonymous(Spelling));
  if (S.rfind("_Z", 0) == 0) {
    Sig.Name = S;
    return Sig;
  }
  // Cut the parameter list: the first '(' outside template brackets.
  int Angle = 0;
  for (size_t I = 0; I != S.size(); ++I) {
    if (S[I] == '<')
      ++Angle;
    else if (S[I] == '>')
      --Angle;
    else if (S[I] == '(' && Angle == 0) {
      S = trim(S.substr(0, I));
      break;
    }
  }
  // The template argument list of the last name, if any.
  std::string Head = S;
  if (!S.empty() && S.back() == '>') {
    int Depth = 0, Paren = 0;
    for (size_t I = S.size(); I-- > 0;) {
      char C = S[I];
      if (C == ')')
        ++Paren;
      else if (C == '(')
        --Paren;
      else if (Paren == 0 && C == '>')
        ++Depth;
      else if (Paren == 0 && C == '<' && --Depth == 0) {
        Head = S.substr(0, I);
        Sig.Template = true;
        for (const std::string &A :
             splitTopLevel(S.substr(I + 1, S.size() - I - 2)))
          Sig.Args.push_back(canonicalArgument(A));
        break;
      }
    }
  }
  // Drop a return type and qualifiers outside template brackets.
  size_t Start = 0;
  Angle = 0;
  for (size_t I = 0; I != Head.size(); ++I) {
    char C = Head[I];
    if (C == '<')
      ++Angle;
    else if (C == '>')
      --Angle;
    else if (Angle == 0 && (C == ' ' || (C == ':' && I + 1 < Head.size() &&
                                         Head[I + 1] == ':')))
      Start = C == ' ' ? I + 1 : I + 2;
  }
  Sig.Name = trim(Head.substr(Start));
  return Sig;
}

InstanceRelation compareInstances(const KernelSignature &Profiled,
                                  const KernelSignature &Analyzed) {
  if (Profiled.Name != Analyzed.Name ||
      Profiled.Template != Analyzed.Template ||
      Profiled.Args.size() != Analyzed.Args.size())
    return InstanceRelation::Different;
  InstanceRelation R = InstanceRelation::Same;
  for (size_t I = 0; I != Profiled.Args.size(); ++I) {
    if (Profiled.Args[I] == Analyzed.Args[I])
      continue;
    if (!argumentsComparable(Profiled.Args[I], Analyzed.Args[I]))
      return InstanceRelation::Different;
    R = InstanceRelation::Compatible;
  }
  return R;
}

std::string unqualifiedKernelName(const std::string &Spelling) {
  return parseKernelSignature(Spelling).Name;
}

} // namespace coalesce::verify
