//! Disk pressure for the mail benches: builds `fsync_shim.c` with the machine's `cc`, and
//! holds the control file that every process started with `LD_PRELOAD` of it reads (sleep
//! per fsync) and counts its fsyncs into. Only measures and slows; never changes a result.

use std::fs::OpenOptions;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;

/// The shim, built, and its control file.
pub struct Pressure {
    ctl: std::fs::File,
    /// The sleep per fsync when pressure is on (`MAIL_LOOP_FSYNC_MS`; 0: never on).
    pub ms: u32,
}

impl Pressure {
    /// Builds the shim and sets the environment every process started after this inherits
    /// (`LD_PRELOAD`, the control file, slot 1, and only `despatch` processes counted and slowed). Call
    /// before any thread starts. `None` (and why, on stderr) when it cannot be built.
    pub fn install() -> Option<Pressure> {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fsync-shim");
        std::fs::create_dir_all(&dir).ok()?;
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/common/fsync_shim.c");
        let lib = dir.join(format!("fsync_shim.{}.so", std::process::id()));
        let built = std::process::Command::new("cc")
            .args(["-shared", "-fPIC", "-O2", "-o"])
            .arg(&lib)
            .arg(&src)
            .arg("-ldl")
            .status()
            .is_ok_and(|s| s.success());
        if !built {
            eprintln!(
                "mail_loop: cannot build {} with cc: no disk pressure, no fsync count",
                src.display()
            );
            return None;
        }
        let path = dir.join(format!("ctl.{}", std::process::id()));
        let ctl = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .ok()?;
        ctl.set_len(64).ok()?;
        // SAFETY: called before any thread is started (see above).
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var("LD_PRELOAD", &lib);
            std::env::set_var("MAIL_LOOP_SHIM_CTL", &path);
            std::env::set_var("MAIL_LOOP_SHIM_SLOT", "1");
            std::env::set_var("MAIL_LOOP_SHIM_ONLY", "despatch");
        }
        let ms = std::env::var("MAIL_LOOP_FSYNC_MS")
            .ok()
            .and_then(|m| m.parse().ok())
            .unwrap_or(0);
        Some(Pressure { ctl, ms })
    }

    /// Turns the sleep per fsync on (`MAIL_LOOP_FSYNC_MS`) or off, for every shimmed process.
    pub fn set(&self, on: bool) {
        let ms = if on { self.ms } else { 0 };
        self.ctl
            .write_all_at(&ms.to_ne_bytes(), 0)
            .expect("pressure control");
    }

    /// The fsyncs the processes this bench started have made so far.
    pub fn fsyncs(&self) -> u64 {
        let mut b = [0u8; 8];
        self.ctl
            .read_exact_at(&mut b, 16)
            .expect("pressure control");
        u64::from_ne_bytes(b)
    }
}
