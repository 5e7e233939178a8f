//===- Process.cpp - Running tools with a deadline ------------------------===//

#include "Process.h"

#include "Csv.h"

#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <signal.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace coalesce::verify {

ProcessResult runProcess(const std::vector<std::string> &Argv,
                         const std::string &WorkDir, const std::string &LogFile,
                         unsigned TimeoutSeconds) {
  ProcessResult R;
  if (Argv.empty())
    return R;
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  pid_t Pid = fork();
  if (Pid < 0)
    return R;
  if (Pid == 0) {
    setpgid(0, 0);
    int Fd = open(LogFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (Fd >= 0) {
      dup2(Fd, 1);
      dup2(Fd, 2);
      close(Fd);
    }
    if (!WorkDir.empty() && chdir(WorkDir.c_str()) != 0)
      _exit(127);
    execvp(Args[0], Args.data());
    _exit(127);
  }
  setpgid(Pid, Pid);
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(TimeoutSeconds);
  int Status = 0;
  for (;;) {
    pid_t Done = waitpid(Pid, &Status, WNOHANG);
    if (Done == Pid)
      break;
    if (Done < 0)
      return R;
    if (TimeoutSeconds && std::chrono::steady_clock::now() > Deadline) {
      kill(-Pid, SIGKILL);
      waitpid(Pid, &Status, 0);
      R.TimedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  R.Output = readFile(LogFile).value_or("");
  if (WIFEXITED(Status))
    R.ExitCode = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    R.ExitCode = 128 + WTERMSIG(Status);
  R.Started = !(R.ExitCode == 127 && R.Output.empty());
  return R;
}

namespace {

bool isExecutable(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode) &&
         access(Path.c_str(), X_OK) == 0;
}

} // namespace

std::string findProgram(const std::string &Name,
                        const std::vector<std::string> &ExtraDirs) {
  if (Name.find('/') != std::string::npos)
    return isExecutable(Name) ? Name : "";
  std::vector<std::string> Dirs;
  if (const char *Path = std::getenv("PATH")) {
    std::istringstream SS(Path);
    std::string D;
    while (std::getline(SS, D, ':'))
      if (!D.empty())
        Dirs.push_back(D);
  }
  Dirs.insert(Dirs.end(), ExtraDirs.begin(), ExtraDirs.end());
  for (const std::string &D : Dirs)
    if (isExecutable(D + "/" + Name))
      return D + "/" + Name;
  return "";
}

std::string tailLines(const std::string &Text, unsigned MaxLines) {
  size_t Pos = Text.size();
  if (Pos && Text[Pos - 1] == '\n')
    --Pos;
  for (unsigned N = 0; N != MaxLines && Pos != std::string::npos && Pos; ++N)
    Pos = Text.find_last_of('\n', Pos - 1);
  if (Pos == std::string::npos || Pos == 0)
    return Text;
  return Text.substr(Pos + 1);
}

} // namespace coalesce::verify
