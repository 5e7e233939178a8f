# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE).
# CPack's DEB generator silently drops the computed dependencies when
# dpkg-shlibdeps is missing and stops with a vague message when `file` is:
# say what to install instead. scripts/bootstrap.sh test installs both.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(_coalesce_missing)
  find_program(_coalesce_shlibdeps dpkg-shlibdeps)
  if(NOT _coalesce_shlibdeps)
    list(APPEND _coalesce_missing "dpkg-shlibdeps (Debian package dpkg-dev)")
  endif()
  find_program(_coalesce_file file)
  if(NOT _coalesce_file)
    list(APPEND _coalesce_missing "file (Debian package file)")
  endif()
  if(_coalesce_missing)
    list(JOIN _coalesce_missing ", " _coalesce_missing)
    message(FATAL_ERROR "cpack -G DEB computes the package's Depends from the "
      "installed programs and needs: ${_coalesce_missing}. "
      "Install them: apt-get install --no-install-recommends dpkg-dev file")
  endif()
endif()
