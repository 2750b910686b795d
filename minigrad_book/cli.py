"""The `minigrad-book` command: release student copies, grade submissions, tag exercises.

    minigrad-book release OUT/                        student copies, no solutions
    minigrad-book release --nbgrader OUT/             the same assignment in nbgrader's format
    minigrad-book grade SUBMISSIONS/ --out REPORT/    gradebook.csv and one feedback page per student
    minigrad-book tag [BOOK/]                         store exercise ids and points in the chapters (idempotent)
"""
import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _parser():
    parser = argparse.ArgumentParser(prog="minigrad-book", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="Teacher's guide: docs/teachers_guide.md")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the teacher's copy of the book: a folder with book/, minigrad/, widgets/ "
                             "(default: %(default)s)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    release = commands.add_parser("release", help="write the student copy of every chapter into OUT/")
    release.add_argument("out", type=Path, metavar="OUT")
    release.add_argument("--nbgrader", action="store_true",
                         help="write an nbgrader course folder instead (source/<chapter>/ with nbgrader metadata)")
    release.add_argument("--no-execute", dest="execute", action="store_false",
                         help="do not re-execute the chapters whose checks lost a reference solution")

    grade = commands.add_parser("grade", help="grade SUBMISSIONS/<student>/<chapter>.ipynb into REPORT/")
    grade.add_argument("submissions", type=Path, metavar="SUBMISSIONS")
    grade.add_argument("--out", type=Path, required=True, metavar="REPORT",
                       help="where gradebook.csv and feedback/<student>.html go (re-running resumes)")
    grade.add_argument("--jobs", type=int, default=None, help="notebooks graded at once (default: the cores)")
    grade.add_argument("--timeout", type=float, default=30, help="seconds per exercise (default: %(default)s)")
    grade.add_argument("--notebook-timeout", type=float, default=300,
                       help="seconds per notebook (default: %(default)s)")
    grade.add_argument("--memory", type=int, default=2048,
                       help="address-space limit per grading process, in MiB (default: %(default)s)")
    grade.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")

    tag = commands.add_parser("tag", help="store each exercise's id and points in its cells' metadata")
    tag.add_argument("book", type=Path, nargs="?", default=None, help="default: ROOT/book")
    tag.add_argument("--check", action="store_true", help="change nothing; exit 1 if a chapter is not tagged")
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        return {"release": _release, "grade": _grade, "tag": _tag}[args.command](args)
    except (FileExistsError, FileNotFoundError, ValueError) as error:
        print(f"minigrad-book {args.command}: error: {error}", file=sys.stderr)
        return 2


def _release(args):
    if args.nbgrader:
        from .nbgrader import export
        names = export(args.root, args.out)
    else:
        from .release import release
        names = release(args.root, args.out, execute=args.execute)
    print(f"wrote {len(names)} chapters to {args.out}")
    return 0


def _grade(args):
    from .grade import Limits, grade
    limits = Limits(exercise=args.timeout, notebook=args.notebook_timeout, memory_mib=args.memory)
    summary = grade(args.root, args.submissions, args.out, limits=limits, jobs=args.jobs, progress=args.progress)
    print(summary)
    return 0


def _tag(args):
    import nbformat
    from . import chapters
    book = args.book or args.root / "book"
    untagged = []
    for path in chapters.chapter_paths(book):
        nb = nbformat.read(path, as_version=4)
        if chapters.tag(nb):
            untagged.append(path.name)
            if not args.check:
                nbformat.write(nb, path)
    verb = "not tagged" if args.check else "tagged"
    print(f"{verb}: {', '.join(untagged) if untagged else 'none'}")
    return 1 if args.check and untagged else 0
