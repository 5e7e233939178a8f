# Installation layout and the Debian package (docs/install.md).
#
#   cmake --install build --prefix /usr/local    # bin/, share/man/man1, share/doc
#   cpack --config build/CPackConfig.cmake -G DEB  # coalesce-lint_<ver>_<arch>.deb
#
# The programs are installed by tool/ and cuda_validation/; this file adds the
# man pages (gzip -9n, as Debian policy wants), the documentation and the
# CPack settings. test/tools/package-test.sh checks all of it.
include(GNUInstallDirs)

# Man pages: hand-written roff in docs/man, compressed at build time.
find_program(GZIP_EXECUTABLE gzip REQUIRED)
set(COALESCE_MAN_PAGES coalesce-lint.1 coalesce-verify.1)
set(COALESCE_MAN_OUTPUTS)
foreach(page IN LISTS COALESCE_MAN_PAGES)
  set(out ${CMAKE_BINARY_DIR}/man/${page})
  add_custom_command(OUTPUT ${out}.gz
    COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/docs/man/${page} ${out}
    COMMAND ${GZIP_EXECUTABLE} -9nf ${out}
    DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/${page}
    COMMENT "Compressing man page ${page}"
    VERBATIM)
  list(APPEND COALESCE_MAN_OUTPUTS ${out}.gz)
endforeach()
add_custom_target(man-pages ALL DEPENDS ${COALESCE_MAN_OUTPUTS})
install(FILES ${COALESCE_MAN_OUTPUTS} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# Documentation: share/doc/coalesce-lint, with docs/ and examples/ kept as
# folders so that the README's relative links still work there.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB COALESCE_DOC_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${COALESCE_DOC_PAGES} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(FILES docs/ci/coalesce-lint.yml DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs/ci)
install(FILES examples/coalesce-lint.example.yaml examples/matrix.cu
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# The Debian package. Depends: the shared libraries' runtime packages as
# dpkg-shlibdeps computes them from the installed programs (libclang-cpp22,
# libllvm22, libfmt9, libyaml-cpp0.7, libjemalloc2, libstdc++6, libc6, ...), never their
# -dev packages, plus clang's resource headers (stddef.h and the CUDA wrapper
# headers every device-side parse includes). Debian ships those only in
# libclang-common-22-dev, which is why clangd-22 and clang-tidy-22 depend on
# it too; the installed program finds them at <prefix>/lib/clang/22, which
# that package provides for the prefix /usr.
set(CPACK_PACKAGE_NAME coalesce-lint)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "coalesce-lint maintainers")
set(CPACK_PACKAGE_CONTACT
  "coalesce-lint maintainers <maintainers@users.noreply.a-seed-7b4ca789.example>"
  CACHE STRING "Maintainer field of the Debian package")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "static analyzer for CUDA global-memory coalescing")
set(CPACK_PACKAGE_DESCRIPTION
"coalesce-lint predicts, for every global-memory load and store of a CUDA
kernel, how many 32-byte sectors a warp request touches and reports the
strided, misaligned and uncoalesced ones as clang-style diagnostics, JSON,
SARIF or GitHub annotations. It is built on Clang 22 LibTooling and needs no
GPU, only the headers of a CUDA toolkit (12.x or 13.x, not part of Debian 12),
found through --cuda-path, CUDA_PATH, nvcc on PATH or /usr/local/cuda.

coalesce-verify checks the predictions on a GPU with Nsight Compute.")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-common-22-dev")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pre-commit")
# Checked when cpack runs (not when CMake configures), so that installing the
# tools later is enough: cmake/CPackProjectConfig.cmake.
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/CPackProjectConfig.cmake)
include(CPack)
