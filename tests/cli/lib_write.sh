# lib_write.sh - sourced by test_faults.sh inside a private mount namespace:
# `. lib_write.sh KIND NESVM PATH DATA MODEL` writes output KIND of nesvm to
# PATH (the other outputs of the command go to a scratch folder) and sets RC.
lw_scratch=$(mktemp -d "${TMPDIR:-/tmp}/nesvm_lw.XXXXXX")
case $1 in
model) "$2" train -q "$4" "$3" ;;
predict) "$2" predict -q "$4" "$5" "$3" ;;
scale-o) "$2" scale -o "$3" "$4" ;;
scale-s) "$2" scale -s "$3" -o "$lw_scratch/scaled" "$4" ;;
trace) "$2" train -q --trace "$3" "$4" "$lw_scratch/model" ;;
cv-trace) "$2" cv -q -v 3 --trace "$3" "$4" ;;
esac
RC=$?
rm -rf "$lw_scratch"
