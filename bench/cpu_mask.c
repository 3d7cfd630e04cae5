/* A CPU without AVX-512, AMX or VNNI, for benchmarks on a CPU that has them (bench/cpu_mask.py builds and loads it).

   Loaded with LD_PRELOAD, it turns on the kernel's CPUID faulting for the process (arch_prctl ARCH_SET_CPUID,
   on CPUs listing `cpuid_fault`), so every CPUID instruction traps; the SIGSEGV handler runs the real CPUID and
   clears the feature bits below before the program sees them. Libraries that choose their kernels by CPUID (ONNX
   Runtime's MLAS, oneDNN, torch, numpy, FAISS) then run their AVX2 kernels: what a CPU with AVX2 and FMA but
   none of these runs. glibc chose its own string routines before this loads (GLIBC_TUNABLES masks those).
   Faulting is per thread, inherited by threads and forks, and reset by exec (which loads this library again). */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef ARCH_SET_CPUID
#define ARCH_SET_CPUID 0x1012
#endif

static void set_cpuid(int allowed) { syscall(SYS_arch_prctl, ARCH_SET_CPUID, allowed); }

static void masked(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
    set_cpuid(1);
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
    set_cpuid(0);
    if (leaf == 7 && sub == 0) {
        /* EBX: AVX512F 16, DQ 17, IFMA 21, PF 26, ER 27, CD 28, BW 30, VL 31 */
        r[1] &= ~((1u << 16) | (1u << 17) | (1u << 21) | (1u << 26) | (1u << 27) | (1u << 28) | (1u << 30) | (1u << 31));
        /* ECX: VBMI 1, VBMI2 6, VNNI 11, BITALG 12, VPOPCNTDQ 14 */
        r[2] &= ~((1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) | (1u << 14));
        /* EDX: 4VNNIW 2, 4FMAPS 3, VP2INTERSECT 8, AMX-BF16 22, AVX512-FP16 23, AMX-TILE 24, AMX-INT8 25 */
        r[3] &= ~((1u << 2) | (1u << 3) | (1u << 8) | (1u << 22) | (1u << 23) | (1u << 24) | (1u << 25));
    } else if (leaf == 7 && sub == 1) {
        /* EAX: AVX-VNNI 4, AVX512-BF16 5, AMX-FP16 21, AVX-IFMA 23; EDX: AVX-VNNI-INT8 4, AVX-NE-CONVERT 5, AVX10 19 */
        r[0] &= ~((1u << 4) | (1u << 5) | (1u << 21) | (1u << 23));
        r[3] &= ~((1u << 4) | (1u << 5) | (1u << 19));
    } else if (leaf == 0xd && sub == 0) {
        /* XCR0 state the OS saves: opmask 5, ZMM_Hi256 6, Hi16_ZMM 7, tile config 17, tile data 18 */
        r[0] &= ~((1u << 5) | (1u << 6) | (1u << 7) | (1u << 17) | (1u << 18));
    } else if (leaf == 0x1d || leaf == 0x1e || leaf == 0x24) {
        r[0] = r[1] = r[2] = r[3] = 0; /* AMX palettes and TMUL, AVX10 */
    }
}

static void on_segv(int sig, siginfo_t *info, void *context) {
    ucontext_t *uc = context;
    greg_t *g = uc->uc_mcontext.gregs;
    const unsigned char *ip = (const unsigned char *)g[REG_RIP];
    if (info->si_code != SI_KERNEL || ip[0] != 0x0f || ip[1] != 0xa2) { /* not CPUID: crash as the program would have */
        signal(sig, SIG_DFL);
        return;
    }
    uint32_t r[4];
    masked((uint32_t)g[REG_RAX], (uint32_t)g[REG_RCX], r);
    g[REG_RAX] = r[0];
    g[REG_RBX] = r[1];
    g[REG_RCX] = r[2];
    g[REG_RDX] = r[3];
    g[REG_RIP] += 2;
}

__attribute__((constructor)) static void arm(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, 0) == 0)
        set_cpuid(0);
}
